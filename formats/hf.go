package formats

import (
	"encoding/json"
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

// classNames reads the names of the ClassLabel feature column from the metadata's JSON value v:
// nil when there is none. A name that is the class's number ("3" for class 3, as the hub's
// MNIST names its classes) names nothing; a name that is empty or not printable, or longer
// than 64 characters, is left out and noted (the sentence returned).
func classNames(v, column string) (map[int]string, string) {
	var info hfInfo
	if err := json.Unmarshal([]byte(v), &info); err != nil {
		return nil, fmt.Sprintf("the %q metadata is not JSON (%v): no class names read", HFMetadataKey, err)
	}
	raw, ok := info.Info.Features[column]
	if !ok {
		return nil, ""
	}
	var f hfFeature
	if err := json.Unmarshal(raw, &f); err != nil || f.Type != "ClassLabel" {
		return nil, ""
	}
	names := map[int]string{}
	dropped := 0
	for k, n := range f.Names {
		n = strings.Join(strings.Fields(n), " ")
		if n == "" || utf8.RuneCountInString(n) > maxClassName || strings.IndexFunc(n, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			dropped++
			continue
		}
		if n != strconv.Itoa(k) {
			names[k] = n
		}
	}
	note := ""
	if dropped > 0 {
		note = fmt.Sprintf("%d class names were left out (empty, not printable, or longer than %d characters)", dropped, maxClassName)
	}
	if len(names) == 0 {
		names = nil
	}
	return names, note
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
