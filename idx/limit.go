package idx

import (
	"os"
	"strconv"
	"strings"
)

// DefaultMaxData is the most data, in bytes, a file may declare to be opened whole (MaxData)
// when IDXLABEL_MAX_DATA is not set: 4 GiB, e.g. 5.4 million 28×28 ubyte images. Streaming
// (OpenFile) has no such limit.
const DefaultMaxData = 4 << 30

// MaxDataEnv is the environment variable that overrides DefaultMaxData: a number of bytes, with
// an optional suffix K, M, G or T (powers of 1024, any case, an optional trailing "B"), e.g.
// "8G". A value that does not parse is ignored.
const MaxDataEnv = "IDXLABEL_MAX_DATA"

// MaxData returns the limit, in bytes, on the data of one file read whole into memory (the
// limit store.Open passes to ReadFileLimit): $IDXLABEL_MAX_DATA when it is set and valid,
// DefaultMaxData otherwise.
func MaxData() int64 {
	if n, ok := parseBytes(os.Getenv(MaxDataEnv)); ok {
		return n
	}
	return DefaultMaxData
}

// parseBytes parses "123", "512M", "8G", "8GB", "2t" (powers of 1024) into a positive count.
func parseBytes(s string) (int64, bool) {
	s = strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B")
	shift := 0
	if k := len(s) - 1; k > 0 {
		if i := strings.IndexByte("KMGT", s[k]); i >= 0 {
			shift, s = 10*(i+1), s[:k]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)>>shift {
		return 0, false
	}
	return n << shift, true
}
