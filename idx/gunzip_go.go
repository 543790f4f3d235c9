//go:build !(cgo && libdeflate)

package idx

// FastGunzip names the whole-buffer gzip decoder ReadFile uses: none in this build (built without
// the libdeflate tag), so every gzip file takes the streaming klauspost/compress path.
const FastGunzip = "none"

// gunzipWhole is the whole-buffer fast path; without libdeflate it always declines.
func gunzipWhole(comp, out []byte) bool { return false }
