package annotate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"idxlabel/idx"
)

// images returns an N×4×4 ubyte image file's encoding and its array: sample i's pixels are
// i's bytes, so every sample differs (up to 65,536), except that dup (when ≥ 0) repeats
// sample 0's pixels.
func images(t testing.TB, n, dup int) ([]byte, *idx.Array) {
	t.Helper()
	a, err := idx.New(idx.UByte, n, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		a.Data[i*16] = byte(i)
		a.Data[i*16+1] = byte(i >> 8)
	}
	if dup >= 0 {
		copy(a.Data[dup*16:(dup+1)*16], a.Data[:16])
	}
	var b bytes.Buffer
	if err := idx.Encode(&b, a); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), a
}

func hashOf(t testing.TB, file []byte) *ImageHashes {
	t.Helper()
	h, err := idx.DecodeHeader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	hs, err := HashImages(context.Background(), h, bytes.NewReader(file[h.Size():]))
	if err != nil {
		t.Fatal(err)
	}
	return hs
}

// HashImages gives the SHA-256 of the whole file and of each sample's stored bytes, and
// refuses data shorter than the header declares.
func TestHashImages(t *testing.T) {
	file, a := images(t, 300, -1)
	hs := hashOf(t, file)
	if hs.File != sha256.Sum256(file) || len(hs.Samples) != 300 {
		t.Fatalf("file digest %s, %d samples", hs.File, len(hs.Samples))
	}
	for i, d := range hs.Samples {
		if d != SampleDigest(a.Data[i*16:(i+1)*16]) {
			t.Fatalf("sample %d: digest %s", i, d)
		}
	}
	h, _ := idx.DecodeHeader(bytes.NewReader(file))
	if _, err := HashImages(context.Background(), h, bytes.NewReader(file[h.Size():len(file)-1])); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("one byte short: %v", err)
	}
}

// labelsOf returns n labels i mod 10.
func labelsOf(n int) []int32 {
	l := make([]int32, n)
	for i := range l {
		l[i] = int32(i % 10)
	}
	return l
}

// An errata file written and read back holds the same rows; applied to the images it was made
// from, every row applies at its own index.
func TestErrataRoundTrip(t *testing.T) {
	file, _ := images(t, 200, -1)
	hs := hashOf(t, file)
	old := labelsOf(200)
	fixed := append([]int32(nil), old...)
	fixed[3], fixed[50], fixed[199] = 8, NoLabel, 1
	old[7] = NoLabel
	fixed[7] = 4
	votes := make([]Vote, 200)
	votes[3] = Vote{8, 3, 3}
	votes[50] = Vote{2, 2, 3} // not the new label: no votes written
	e, err := MakeErrata(hs, old, fixed, votes, `checked by "two" people, twice`)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := e.WriteCSV(&b, "images,\nname"); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	wantStart := fmt.Sprintf("# idxlabel errata: images sha256 %s, 200 samples, \"images,\\nname\"\nindex,sha256,old,new,votes,note\n3,%s,3,8,3/3,\"checked by \"\"two\"\" people, twice\"\n", hs.File, hs.Samples[3])
	if !strings.HasPrefix(text, wantStart) {
		t.Fatalf("wrote\n%s\nwant it to start\n%s", text, wantStart)
	}
	if !strings.Contains(text, "\n7,"+hs.Samples[7].String()+",,4,,") || !strings.Contains(text, "\n50,"+hs.Samples[50].String()+",0,,,") {
		t.Fatalf("no label is not written empty:\n%s", text)
	}
	back, err := ReadErrata(strings.NewReader(text), "errata.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !back.HasImages || back.Images != hs.File || back.Samples != 200 || len(back.Rows) != 4 {
		t.Fatalf("read %+v", back)
	}
	for k, r := range back.Rows {
		w := e.Rows[k]
		if r.Index != w.Index || r.SHA256 != w.SHA256 || r.Old != w.Old || r.New != w.New || r.Votes != w.Votes || r.Note != w.Note || r.Line != k+3 {
			t.Fatalf("row %d: read %+v, wrote %+v", k, r, w)
		}
	}
	for _, o := range Apply(back, hs.Samples, old, nil) {
		if !o.Applied() || o.At != o.Row.Index || o.Moved {
			t.Fatalf("row %d: %v", o.Row.Index, o)
		}
	}
}

// Apply refuses every row that does not match, with its reason: a sample whose label changed,
// one already corrected, pixels nowhere in the images, pixels at several samples, a new label
// the file cannot hold, a sample corrected twice; and finds a sample shifted by a deletion by
// its pixels.
func TestApplyReasons(t *testing.T) {
	file, _ := images(t, 100, 90) // sample 90 repeats sample 0's pixels
	hs := hashOf(t, file)
	labels := labelsOf(100)
	row := func(line, i int, old, new int32) Row {
		return Row{Line: line, Index: i, SHA256: hs.Samples[i], Old: old, New: new}
	}
	e := &Errata{Rows: []Row{
		row(2, 10, 0, 5),   // applies
		row(3, 11, 4, 5),   // label is 1: differs
		row(4, 12, 9, 2),   // label 2 already
		row(5, 13, 3, 300), // does not fit
		row(6, 14, 4, 6),   // applies
	}}
	moved := row(7, 20, 0, 7) // sample 20 found at 19 (a deletion before it)
	moved.Index = 21
	moved.SHA256 = hs.Samples[20]
	e.Rows = append(e.Rows, moved)
	gone := row(8, 30, 0, 1)
	gone.SHA256[0] ^= 1
	e.Rows = append(e.Rows, gone)
	amb := row(9, 0, 0, 1) // sample 0's pixels, named at 50 where other pixels are: 0 and 90 have them
	amb.Index = 50
	e.Rows = append(e.Rows, amb)
	twice := row(10, 10, 0, 5)
	twice.Index = 40 // not at 40; found by hash at 10, which line 2 corrected
	e.Rows = append(e.Rows, twice)
	fits := func(l int32) bool { return l >= 0 && l <= 255 }
	got := Apply(e, hs.Samples, labels, fits)
	want := []struct {
		reason Reason
		at     int
		moved  bool
	}{
		{Applied, 10, false}, {LabelDiffers, 11, false}, {AlreadyNew, 12, false}, {DoesNotFit, 13, false},
		{Applied, 14, false}, {Applied, 20, true}, {NotFound, -1, false}, {Ambiguous, -1, false}, {Repeated, 10, true},
	}
	for k, w := range want {
		o := got[k]
		if o.Reason != w.reason || o.At != w.at || o.Moved != w.moved {
			t.Errorf("line %d: %v (reason %d at %d moved %v), want reason %d at %d moved %v", o.Row.Line, o, o.Reason, o.At, o.Moved, w.reason, w.at, w.moved)
		}
	}
	for _, s := range []struct {
		k    int
		want string
	}{
		{1, "sample 11: its label is 1, not the row's old label 4"},
		{5, "sample 20 (found by its pixels; the row says 21): 0 → 7"},
		{6, "sample 30: no sample of these images has its pixels"},
		{7, "sample 50: other pixels there, and 2 samples have the row's pixels"},
		{8, "corrected by line 2 already"},
	} {
		if msg := got[s.k].String(); !strings.Contains(msg, s.want) {
			t.Errorf("line %d says %q, want %q", got[s.k].Row.Line, msg, s.want)
		}
	}
	if labels[10] != 0 {
		t.Fatal("Apply changed the labels")
	}
}

// A forged errata file gets an error naming the file and the line and saying what is wrong,
// whatever it holds: an over-long line, bad hex, a negative, signed, huge or path-like index,
// a bad label, a control character, a missing or extra field, a wrong header, a repeated
// sample, bad votes, binary data (an IDX file given as errata).
func TestReadErrataForged(t *testing.T) {
	const h = "index,sha256,old,new,votes,note\n"
	d := strings.Repeat("ab", 32)
	for _, tc := range []struct{ text, want string }{
		{"", "f.csv: empty: expected the header index,sha256,old,new,votes,note"},
		{"# only a comment\n", "f.csv: empty"},
		{"index,sha,old,new,votes,note\n", "f.csv:1: expected the header index,sha256,old,new,votes,note, found \"index,sha,old,new,votes,note\""},
		{h + "0," + d + ",1,2,,\n" + strings.Repeat("x", 5000) + "\n", "f.csv:3: longer than 4096 bytes"},
		{h + strings.Repeat("1", 10000), "f.csv:2: longer than 4096 bytes"},
		{h + "0," + strings.Repeat("zz", 32) + ",1,2,,\n", "f.csv:2: sha256 \"zzzz"},
		{h + "0,abc,1,2,,\n", "f.csv:2: sha256 \"abc\": a SHA-256 is 64 hexadecimal digits, found 3 characters"},
		{h + "-1," + d + ",1,2,,\n", "f.csv:2: index \"-1\" is not a sample number"},
		{h + "+1," + d + ",1,2,,\n", "f.csv:2: index \"+1\" is not a sample number"},
		{h + "99999999999," + d + ",1,2,,\n", "f.csv:2: index \"99999999999\" is not a sample number"},
		{h + "../../etc/passwd," + d + ",1,2,,\n", "f.csv:2: index \"../../etc/passwd\" is not a sample number"},
		{h + "/tmp/x," + d + ",1,2,,\n", "f.csv:2: index \"/tmp/x\" is not a sample number"},
		{h + "0," + d + ",1,2,,C:\\Windows\x1b[2J\n", "f.csv:2: field 6 holds a control character (U+001B)"},
		{h + "0," + d + ",1,99999999999,,\n", "f.csv:2: new label \"99999999999\" is not a 32-bit class"},
		{h + "0," + d + ",one,2,,\n", "f.csv:2: old label \"one\" is not a 32-bit class"},
		{h + "0," + d + ",2,2,,\n", "f.csv:2: old and new label are the same"},
		{h + "0," + d + ",,,,\n", "f.csv:2: old and new label are the same"},
		{h + "0," + d + ",1,2,\n", "f.csv:2: not CSV: expected 6 comma-separated fields"},
		{h + "0," + d + ",1,2,,,\n", "f.csv:2: not CSV: expected 6 comma-separated fields"},
		{h + "0," + d + ",1,2,,\"a\nb\"\n", "f.csv:2: field 6 holds a control character"},
		{h + "0," + d + ",1,2,,\"open\n", "f.csv:2: not CSV"},
		{h + "0," + d + ",1,2,4/3,\n", "f.csv:2: votes \"4/3\": expected V/A"},
		{h + "0," + d + ",1,2,lots,\n", "f.csv:2: votes \"lots\""},
		{h + "0," + d + ",1,2,,\n5," + d + ",1,2,,\n0," + d + ",3,4,,\n", "f.csv:4: sample 0 is corrected twice (line 2 too)"},
		{"# comment\n" + h + "0," + d + ",1,2,,\n1,xyz,1,2,,\n", "f.csv:4: sha256 \"xyz\""},
		{h + "0," + d + ",1,2,,\xff\xfe\n", "f.csv:2: field 6 is not UTF-8 text"},
		{h + "0," + d + ",1,2,,\x00\n", "f.csv:2: binary data (a NUL byte)"},
		{"\x00\x00\x08\x01\x00\x00\x27\x10", "f.csv:1: binary data (a NUL byte)"},
	} {
		_, err := ReadErrata(strings.NewReader(tc.text), "f.csv")
		var fe *FormatError
		if err == nil || !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%.60q: error %v, want it to start %q", tc.text, err, tc.want)
		}
	}
}

// endless is a reader of one line repeated for ever: a forged file as large as an attacker likes.
type endless struct {
	line []byte
	off  int
}

func (r *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.line[r.off:])
		n += c
		r.off = (r.off + c) % len(r.line)
	}
	return n, nil
}

// A file larger than MaxBytes is refused once that much is read, however it is padded
// (here with comment lines, the cheapest to read).
func TestReadErrataTooLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 256 MiB; skipped with -short")
	}
	r := io.MultiReader(strings.NewReader("index,sha256,old,new,votes,note\n"), &endless{line: []byte("#" + strings.Repeat("p", 4000) + "\n")})
	_, err := ReadErrata(r, "big.csv")
	if err == nil || err.Error() != "big.csv: larger than 256 MiB: not an errata or votes file" {
		t.Fatalf("endless file: %v", err)
	}
}

// countingRows produces valid errata rows numbered 0, 1, 2, … for ever.
type countingRows struct {
	i   int
	buf []byte
}

func (r *countingRows) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) {
		r.buf = fmt.Appendf(r.buf, "%d,%064x,1,2,,\n", r.i, r.i)
		r.i++
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// A file of more than MaxRows rows is refused at row MaxRows + 1.
func TestReadErrataTooManyRows(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 2,097,153 rows; skipped with -short")
	}
	r := io.MultiReader(strings.NewReader("index,sha256,old,new,votes,note\n"), &countingRows{})
	_, err := ReadErrata(r, "many.csv")
	if err == nil || err.Error() != fmt.Sprintf("many.csv:%d: more than %d rows", MaxRows+2, MaxRows) {
		t.Fatalf("endless rows: %v", err)
	}
}

// A votes file is read back as written; a forged one is refused with file and line.
func TestVotesFile(t *testing.T) {
	votes := []Vote{{1, 3, 3}, {NoLabel, 1, 2}, {NoLabel, 0, 0}, {-5, 2, 3}}
	var b bytes.Buffer
	if err := WriteVotes(&b, votes); err != nil {
		t.Fatal(err)
	}
	if b.String() != "index,label,votes,annotators\n0,1,3,3\n1,,1,2\n2,,0,0\n3,-5,2,3\n" {
		t.Fatalf("wrote %q", b.String())
	}
	back, err := ReadVotes(&b, "v.csv", 4)
	if err != nil || fmt.Sprint(back) != fmt.Sprint(votes) {
		t.Fatalf("read %v, %v", back, err)
	}
	for _, tc := range []struct{ text, want string }{
		{"index,label,votes,annotators\n4,1,1,1\n", "v.csv:2: index \"4\" is not a sample number of the 4 images"},
		{"index,label,votes,annotators\n0,1,1,1\n0,1,1,1\n", "v.csv:3: sample 0 is listed twice"},
		{"index,label,votes,annotators\n0,1,3,2\n", "v.csv:2: expected a label"},
		{"index,label,annotators\n", "v.csv:1: not CSV"},
	} {
		if _, err := ReadVotes(strings.NewReader(tc.text), "v.csv", 4); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

// A note that is not one line of text is refused before anything is written.
func TestMakeErrataRefusesBadNotes(t *testing.T) {
	file, _ := images(t, 3, -1)
	hs := hashOf(t, file)
	for _, note := range []string{"two\nlines", "tab\there", "\x1b[31mred", "\xff", strings.Repeat("n", 1001)} {
		if _, err := MakeErrata(hs, labelsOf(3), []int32{5, 5, 5}, nil, note); err == nil {
			t.Errorf("note %q accepted", note)
		}
	}
	if _, err := MakeErrata(hs, labelsOf(3), labelsOf(2), nil, ""); err == nil {
		t.Error("2 new labels for 3 images accepted")
	}
}

// FuzzReadErrata: whatever the bytes, ReadErrata returns rows or an error, never panics; rows
// it accepts are written and read back unchanged.
func FuzzReadErrata(f *testing.F) {
	d := strings.Repeat("0f", 32)
	f.Add("# idxlabel errata: images sha256 " + d + ", 3 samples, \"x\"\nindex,sha256,old,new,votes,note\n0," + d + ",1,2,2/3,note\n")
	f.Add("index,sha256,old,new,votes,note\n1," + d + ",,7,,\"a,b\"\n")
	f.Add("\uFEFFindex,sha256,old,new,votes,note\r\n2," + d + ",-3,,,\r\n")
	f.Fuzz(func(t *testing.T, text string) {
		e, err := ReadErrata(strings.NewReader(text), "fuzz.csv")
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := e.WriteCSV(&b, "x"); err != nil {
			t.Fatal(err)
		}
		back, err := ReadErrata(&b, "again.csv")
		if err != nil {
			t.Fatalf("rows it read do not read back: %v\n%q", err, b.String())
		}
		if len(back.Rows) != len(e.Rows) || back.HasImages != e.HasImages || back.Images != e.Images {
			t.Fatalf("read back %+v, first %+v", back, e)
		}
		for k, r := range back.Rows {
			w := e.Rows[k]
			if r.Index != w.Index || r.SHA256 != w.SHA256 || r.Old != w.Old || r.New != w.New || r.Votes != w.Votes || r.Note != w.Note {
				t.Fatalf("row %d: %+v, first %+v", k, r, w)
			}
		}
	})
}
