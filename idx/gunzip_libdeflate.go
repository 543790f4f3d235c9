//go:build cgo && libdeflate

package idx

/*
#cgo pkg-config: libdeflate
#include <libdeflate.h>
*/
import "C"

import "unsafe"

// FastGunzip names the whole-buffer gzip decoder ReadFile uses when a gzip file's trailer agrees
// with its IDX header: libdeflate (github.com/ebiggers/libdeflate) in this build.
const FastGunzip = "libdeflate"

// gunzipWhole decompresses the gzip member that fills comp into out, which must be exactly the
// decompressed size. It reports false when the stream is not exactly one member of exactly
// len(out) bytes with a good CRC-32; the caller then takes the streaming path, which says what
// is wrong.
func gunzipWhole(comp, out []byte) bool {
	if len(comp) == 0 || len(out) == 0 {
		return false
	}
	d := C.libdeflate_alloc_decompressor()
	if d == nil {
		return false
	}
	defer C.libdeflate_free_decompressor(d)
	var in, got C.size_t
	r := C.libdeflate_gzip_decompress_ex(d, unsafe.Pointer(&comp[0]), C.size_t(len(comp)),
		unsafe.Pointer(&out[0]), C.size_t(len(out)), &in, &got)
	return r == C.LIBDEFLATE_SUCCESS && int(in) == len(comp) && int(got) == len(out)
}
