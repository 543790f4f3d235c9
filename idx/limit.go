package idx

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// DefaultMaxData is the most data, in bytes, a file may declare to be opened whole (MaxData)
// when IDXLABEL_MAX_DATA is not set: 4 GiB, e.g. 5.4 million 28×28 ubyte images. Streaming
// (OpenFile) has no such limit.
const DefaultMaxData = 4 << 30

// MaxDataEnv is the environment variable that overrides DefaultMaxData: a whole number of bytes,
// with an optional suffix K, M, G or T (powers of 1024, any case, optionally followed by "B" or
// "iB"), e.g. "8G" or "512MiB". A value that does not parse is ignored by MaxData and reported by
// CheckMaxDataEnv.
const MaxDataEnv = "IDXLABEL_MAX_DATA"

// CheckMaxDataEnv returns an error when IDXLABEL_MAX_DATA is set to a value MaxData cannot use
// (so the default applies instead of the cap the person meant), naming the variable, its value
// and the accepted form; nil when it is unset or valid.
func CheckMaxDataEnv() error {
	v, set := os.LookupEnv(MaxDataEnv)
	if !set || v == "" {
		return nil
	}
	if _, ok := parseBytes(v); !ok {
		return fmt.Errorf("%s=%q is not a size: give a whole number of bytes, optionally with K, M, G or T (powers of 1024), e.g. 8G", MaxDataEnv, v)
	}
	return nil
}

// MaxData returns the limit, in bytes, on the data of one file read whole into memory (the
// limit store.Open passes to ReadFileLimit): $IDXLABEL_MAX_DATA when it is set and valid,
// DefaultMaxData otherwise.
func MaxData() int64 {
	if n, ok := parseBytes(os.Getenv(MaxDataEnv)); ok {
		return n
	}
	return DefaultMaxData
}

// parseBytes parses "123", "512M", "8G", "8GB", "8GiB", "2t" (powers of 1024) into a positive
// count.
func parseBytes(s string) (int64, bool) {
	s = strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B")
	iec := strings.HasSuffix(s, "I") // "KiB": the "i" only after a unit
	s = strings.TrimSuffix(s, "I")
	shift := 0
	if k := len(s) - 1; k > 0 {
		if i := strings.IndexByte("KMGT", s[k]); i >= 0 {
			shift, s = 10*(i+1), strings.TrimSpace(s[:k])
		}
	}
	if iec && shift == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)>>shift {
		return 0, false
	}
	return n << shift, true
}
