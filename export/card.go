package export

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
)

// maxClassLabel is the most classes a Parquet export declares as a ClassLabel (names 0…k−1);
// labels beyond it, or negative ones, make the label a plain int64 Value.
const maxClassLabel = 100_000

// card is a Parquet export's dataset card (README.md): the YAML header the hub reads (features,
// class names, splits and their sizes, the data files of each split) and how the set was made.
type card struct {
	made       string
	classes    int  // k: the ClassLabel's classes 0…k−1
	classLabel bool // labels fit a ClassLabel; else a plain int64
	names      []func(c int) string
	splits     []cardSplit
	h, w       int
}

type cardSplit struct {
	name    string
	n       int
	bytes   int64 // image and label data (num_bytes)
	sources []cardSource
}

type cardSource struct{ name, sha string }

// newCard reads what the card says of splits: the classes their labels use, and each source's
// SHA-256 (read whole, a file at a time). Errors: a source that cannot be read.
func newCard(splits []Split, made string) (*card, error) {
	c := &card{made: made, classLabel: true}
	c.h, c.w = splits[0].Set.ShownSize()
	for _, sp := range splits {
		cs := cardSplit{name: sp.Name, n: sp.Set.N}
		for _, l := range sp.Set.Labels {
			switch {
			case l == sample.NoLabel:
			case l < 0 || l >= maxClassLabel:
				c.classLabel = false
			default:
				c.classes = max(c.classes, l+1)
			}
		}
		if sp.Set.ClassName != nil {
			c.names = append(c.names, sp.Set.ClassName)
		}
		for _, p := range sp.Sources {
			sum, err := fileSHA256(p)
			if err != nil {
				return nil, err
			}
			cs.sources = append(cs.sources, cardSource{filepath.Base(p), sum})
		}
		c.splits = append(c.splits, cs)
	}
	if !c.classLabel {
		c.classes = 0
	}
	return c, nil
}

// className returns class k's name: the first split's that names it, or "".
func (c *card) className(k int) string {
	for _, f := range c.names {
		if n := f(k); n != "" {
			return n
		}
	}
	return ""
}

// fileSHA256 returns the SHA-256 of the regular file path, in hex.
func fileSHA256(path string) (string, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// quote returns s as a YAML double-quoted scalar (JSON's string syntax, which YAML reads).
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// text returns the card: the YAML header the hub and the datasets library read, then a few
// lines on how the set was made.
func (c *card) text() string {
	var b strings.Builder
	b.WriteString("---\ntask_categories:\n- image-classification\ndataset_info:\n  features:\n  - name: image\n    dtype: image\n  - name: label\n")
	if c.classLabel {
		b.WriteString("    dtype:\n      class_label:\n        names:\n")
		for k := range c.classes {
			name := c.className(k)
			if name == "" {
				name = fmt.Sprint(k)
			}
			fmt.Fprintf(&b, "          '%d': %s\n", k, quote(name))
		}
	} else {
		b.WriteString("    dtype: int64\n")
	}
	b.WriteString("  splits:\n")
	var size int64
	for _, s := range c.splits {
		fmt.Fprintf(&b, "  - name: %s\n    num_bytes: %d\n    num_examples: %d\n", s.name, s.bytes, s.n)
		size += s.bytes
	}
	fmt.Fprintf(&b, "  dataset_size: %d\nconfigs:\n- config_name: default\n  data_files:\n", size)
	for _, s := range c.splits {
		fmt.Fprintf(&b, "  - split: %s\n    path: data/%s-*\n", s.name, s.name)
	}
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "An image-classification dataset of %d×%d grey images (0 = background), in the layout of the\n", c.w, c.h)
	b.WriteString("Hugging Face hub: `datasets.load_dataset(\"parquet\", data_dir=\"data\")`, or `load_dataset` of this\n")
	b.WriteString("folder, reads it. Each row is an `image` (a PNG file) and its `label` (the class number; −1: none).\n\n")
	what := "idxlabel"
	if c.made != "" {
		what = c.made
	}
	fmt.Fprintf(&b, "Written by %s (`idxlabel export --format parquet`)", what)
	if !c.anySources() {
		b.WriteString(".\n")
		return b.String()
	}
	b.WriteString(" from these files:\n\n| split | samples | file | SHA-256 |\n|---|---|---|---|\n")
	for _, s := range c.splits {
		for i, src := range s.sources {
			n := ""
			if i == 0 {
				n = fmt.Sprint(s.n)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | `%s` |\n", s.name, n, strings.ReplaceAll(src.name, "|", `\|`), src.sha)
		}
	}
	return b.String()
}

func (c *card) anySources() bool {
	for _, s := range c.splits {
		if len(s.sources) > 0 {
			return true
		}
	}
	return false
}
