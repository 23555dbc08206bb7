# Writes a C file defining one byte array with the contents of a file:
#   cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
# gives `const unsigned char NAME[]` (NUL-terminated) and `const size_t NAME_size`.
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" body "${body}")
file(WRITE ${OUT} "/* generated from ${IN} by src/cc/embed.cmake */\n#include <stddef.h>\n"
     "const unsigned char ${NAME}[] = {\n${body}0x00};\nconst size_t ${NAME}_size = ${bytes};\n")
