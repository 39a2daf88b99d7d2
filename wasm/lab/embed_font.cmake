# cmake -DINPUT=font.ttf -DOUTPUT=lab_font_data.cpp -P embed_font.cmake
# Writes the font's bytes as a C++ array (kPosencLabFont, kPosencLabFontSize); an empty INPUT
# writes an empty font, and the Lab keeps Dear ImGui's own.
if(INPUT AND EXISTS "${INPUT}")
  file(READ "${INPUT}" hex HEX)
  string(LENGTH "${hex}" chars)
  math(EXPR size "${chars} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
else()
  set(size 0)
  set(bytes "0")
endif()
file(WRITE "${OUTPUT}" "// Generated from ${INPUT} by wasm/lab/embed_font.cmake; do not edit.\n"
  "extern const unsigned char kPosencLabFont[];\nextern const unsigned int kPosencLabFontSize;\n"
  "alignas(4) const unsigned char kPosencLabFont[] = {\n${bytes}\n};\n"
  "const unsigned int kPosencLabFontSize = ${size};\n")
