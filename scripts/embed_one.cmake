# Called by pe_embed_files at build time: writes IN as a byte array named SYMBOL into OUT.
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "#include <cstddef>\n// Generated from ${IN}; trailing NUL so text users can treat it as a C string.\nextern const unsigned char ${SYMBOL}[] = {${bytes}0x00};\n")
string(REPLACE "_data_" "_size_" size_symbol "${SYMBOL}")
file(APPEND ${OUT} "extern const std::size_t ${size_symbol} = ${size};\n")
