#include "core/format/decoder.h"

namespace profscope {

void NoteDecodeStopped(Diagnostics& diags, uint64_t at, uint64_t end, uint64_t file_size, const std::string& file) {
  const uint64_t left = end > at ? end - at : 0;
  diags.Warning(DiagCode::kDecodeStopped, at, left,
                "decoding was stopped at byte offset " + Dec(at) + " of " + (file.empty() ? "" : file + ", ") + Dec(file_size) + " bytes (" +
                    Dec(file_size ? at * 100 / file_size : 100) + " %): the " + Dec(left) +
                    " bytes of records after it are not read" +
                    (file.empty() ? "" : ", nor the rest of the other data files (they are read in turns)") +
                    "; everything before it is shown");
}

}  // namespace profscope
