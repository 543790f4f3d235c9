package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hugging Face's datasets library keeps a split's features in its Parquet file's key-value
// metadata under "huggingface": {"info":{"features":{"image":{"_type":"Image"},
// "label":{"names":[…],"_type":"ClassLabel"}}}}. A ClassLabel's names list names class k at
// position k.

// HFMetadataKey is the key of the features in a Parquet file's key-value metadata.
const HFMetadataKey = "huggingface"

// maxClassName is the longest class name kept, in characters (the class-name files' limit).
const maxClassName = 64

// hfInfo is the part of the metadata read and written.
type hfInfo struct {
	Info struct {
		Features map[string]json.RawMessage `json:"features"`
	} `json:"info"`
}

// hfFeature is one feature: its type ("Image", "ClassLabel", "Value") and, for a ClassLabel,
// its names, for a Value its dtype.
type hfFeature struct {
	Type  string   `json:"_type"`
	Names []string `json:"names,omitempty"`
	Dtype string   `json:"dtype,omitempty"`
}

// Bounds on the ClassLabel names kept: the most classes named (export's bound on a ClassLabel's
// classes) and the most bytes of names in all (the class-name file's size, which
// pairfile.FindClassNames reads at most). A file may list more; the rest are left out and noted.
const (
	maxClassNames     = 100_000
	maxClassNameBytes = 1 << 20
)

// classNames reads the names of the ClassLabel feature column from the metadata's JSON value v:
// nil when there is none. A name that is the class's number ("3" for class 3, as the hub's
// MNIST names its classes) names nothing; a name that is empty or not printable, or longer
// than 64 characters, is left out and noted (the sentence returned), as are the names past
// maxClassNames classes or maxClassNameBytes bytes. The names are read one at a time (the
// metadata may list millions): memory is the names kept, beside v.
func classNames(v, column string) (map[int]string, string) {
	var info hfInfo
	if err := json.Unmarshal([]byte(v), &info); err != nil {
		return nil, fmt.Sprintf("the %q metadata is not JSON (%v): no class names read", HFMetadataKey, err)
	}
	raw, ok := info.Info.Features[column]
	if !ok {
		return nil, ""
	}
	names := map[int]string{}
	dropped, beyond, kept := 0, 0, 0
	isLabel, more, err := eachClassName(raw, maxClassNames, func(k int, n string) {
		if kept+len(n) > maxClassNameBytes {
			beyond++
			return
		}
		n = strings.Join(strings.Fields(n), " ")
		if n == "" || utf8.RuneCountInString(n) > maxClassName || strings.IndexFunc(n, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			dropped++
			return
		}
		if n != strconv.Itoa(k) {
			names[k] = n
			kept += len(n)
		}
	})
	if err != nil || !isLabel {
		return nil, ""
	}
	beyond += more
	var notes []string
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d class names were left out (empty, not printable, or longer than %d characters)", dropped, maxClassName))
	}
	if beyond > 0 {
		notes = append(notes, fmt.Sprintf("%d class names past the first %d classes or %d bytes of names were left out", beyond, maxClassNames, maxClassNameBytes))
	}
	if len(names) == 0 {
		names = nil
	}
	return names, strings.Join(notes, "; ")
}

// eachClassName calls f with each name the feature raw (a JSON object) lists under "names", in
// order with its class (null as ""), and reports whether the feature is a ClassLabel (its
// "_type"). f is called only for the first limit names; the rest are counted (more), not
// decoded, so a list of millions costs no string each. Errors: raw is not such an object.
func eachClassName(raw json.RawMessage, limit int, f func(k int, name string)) (isLabel bool, more int, err error) {
	var feature struct {
		Type  string          `json:"_type"`
		Names json.RawMessage `json:"names"`
	}
	if err := json.Unmarshal(raw, &feature); err != nil {
		return false, 0, err
	}
	b := bytes.TrimSpace(feature.Names)
	if len(b) == 0 || string(b) == "null" {
		return feature.Type == "ClassLabel", 0, nil
	}
	// Unmarshal has checked the JSON: the list holds values separated by commas; each string
	// ends at the first quote not escaped.
	if b[0] != '[' {
		return false, 0, errors.New("names that are not a list")
	}
	b = bytes.TrimSpace(b[1:])
	for k := 0; len(b) > 0 && b[0] != ']'; k++ {
		var name string
		switch {
		case bytes.HasPrefix(b, []byte("null")):
			b = b[4:]
		case b[0] == '"':
			end := 1
			for end < len(b) && b[end] != '"' {
				if b[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(b) {
				return false, 0, errors.New("a class name without its closing quote")
			}
			lit := b[:end+1]
			b = b[end+1:]
			if k >= limit {
				more++
				break
			}
			if bytes.IndexByte(lit, '\\') < 0 && utf8.Valid(lit) {
				name = string(lit[1 : len(lit)-1])
			} else if err := json.Unmarshal(lit, &name); err != nil {
				return false, 0, err
			}
		default:
			return false, 0, errors.New("a class name that is not a string")
		}
		if k < limit {
			f(k, name)
		}
		b = bytes.TrimLeft(bytes.TrimSpace(b), ",")
		b = bytes.TrimSpace(b)
	}
	return feature.Type == "ClassLabel", more, nil
}

// HFMetadata returns the "huggingface" metadata of an image-classification split: an Image
// feature named image and, for label, with classLabel a ClassLabel whose names are those of
// classes 0…classes−1 (ClassLabelNames), else a plain int64 Value (labels a ClassLabel cannot
// hold: negative ones, or too many classes; the caller decides).
func HFMetadata(names func(c int) string, classes int, classLabel bool) string {
	var info hfInfo
	info.Info.Features = map[string]json.RawMessage{}
	img, _ := json.Marshal(hfFeature{Type: "Image"})
	info.Info.Features["image"] = img
	label := hfFeature{Type: "Value", Dtype: "int64"}
	if classLabel {
		label = hfFeature{Type: "ClassLabel", Names: ClassLabelNames(names, classes)}
	}
	lb, _ := json.Marshal(label)
	info.Info.Features["label"] = lb
	out, _ := json.Marshal(info)
	return string(out)
}

// ClassLabelNames returns the names of classes 0…classes−1 as a ClassLabel lists them: each
// class's name, or its number when it has none (names may be nil).
func ClassLabelNames(names func(c int) string, classes int) []string {
	out := make([]string, classes)
	for c := range out {
		if names != nil {
			out[c] = names(c)
		}
		if out[c] == "" {
			out[c] = fmt.Sprint(c)
		}
	}
	return out
}
