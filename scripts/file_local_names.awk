# Prints "DIRECTORY NAME FILE" for each function a C++ file defines file-locally at its top
# level: in an anonymous namespace (closed by clang-format's "}  // namespace") or static.
# Macros (TEST, TEST_F) and member definitions (Foo::bar) are left out. scripts/lint.sh reports
# the names that two files of one directory share.
FNR == 1 { anon = 0; dir = FILENAME; sub(/\/[^\/]*$/, "", dir) }
/^namespace \{$/ { anon = 1; next }
anon && /^\}  \/\/ namespace$/ { anon = 0; next }
(anon && /^[A-Za-z]/) || /^static [A-Za-z]/ {
  if ($0 ~ /^(struct|class|enum|union|using|typedef|template|static_assert)[ (<]/) next
  if (!match($0, /[A-Za-z_][A-Za-z0-9_:]*\(/)) next
  name = substr($0, RSTART, RLENGTH - 1)
  if (name ~ /::/ || name ~ /^[A-Z_0-9]+$/ || substr($0, 1, RSTART - 1) ~ /=/) next
  print dir, name, FILENAME
}
