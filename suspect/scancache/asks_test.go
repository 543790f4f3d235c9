package scancache

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStoreLoadAsks: a ranking comes back as stored; other labels, another accepted mark,
// another space, another count, another layout or no file is a miss.
func TestStoreLoadAsks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x-images-idx3-ubyte"+AsksSuffix)
	labels := []int{3, -2147483648, 5, -2147483648, -2147483648, 3}
	accepted := []bool{false, false, true, false, false, false}
	key := AsksKeyOf(Key{1}, labels, accepted)
	if _, _, err := LoadAsks(path, key, 6); !errors.Is(err, ErrMiss) {
		t.Fatalf("no file: %v", err)
	}
	unsure := []float32{0.9, 0.1, 0.5, -0.2, 0.3, 1}
	if err := StoreAsks(path, key, []int{3, 5}, unsure); err != nil {
		t.Fatal(err)
	}
	classes, got, err := LoadAsks(path, key, 6)
	if err != nil || !slices.Equal(classes, []int{3, 5}) || !slices.Equal(got, unsure) {
		t.Fatalf("read back %v %v, %v", classes, got, err)
	}
	other := slices.Clone(labels)
	other[1] = 5
	for name, k := range map[string]Key{
		"a label more":    AsksKeyOf(Key{1}, other, accepted),
		"no accepted":     AsksKeyOf(Key{1}, labels, nil),
		"another space":   AsksKeyOf(Key{2}, labels, accepted),
		"a label changed": AsksKeyOf(Key{1}, []int{3, -2147483648, 5, -2147483648, -2147483648, 5}, accepted),
	} {
		if k == key {
			t.Errorf("%s: the same key", name)
		}
		if _, _, err := LoadAsks(path, k, 6); !errors.Is(err, ErrMiss) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, _, err := LoadAsks(path, key, 7); !errors.Is(err, ErrMiss) {
		t.Errorf("another count: %v", err)
	}
	b, _ := os.ReadFile(path)
	binary.LittleEndian.PutUint32(b[8:], asksVersion+1)
	os.WriteFile(path, b, 0o644)
	if _, _, err := LoadAsks(path, key, 6); !errors.Is(err, ErrMiss) {
		t.Errorf("another layout: %v", err)
	}
}

// TestLoadAsksDamaged: every damage is an error naming the file, never a panic or a miss; a
// symbolic link there is refused (not followed, even to a good file) and never written through.
func TestLoadAsksDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x"+AsksSuffix)
	key := Key{7}
	const n = 40
	unsure := make([]float32, n)
	for i := range unsure {
		unsure[i] = float32(i) / n
	}
	if err := StoreAsks(path, key, []int{0, 1, 2}, unsure); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	reseal := func(b []byte) []byte {
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc(b[:len(b)-4]))
		return b
	}
	at := func(off int, v uint32) []byte {
		b := slices.Clone(good)
		binary.LittleEndian.PutUint32(b[off:], v)
		return reseal(b)
	}
	cases := map[string][]byte{
		"short header":    good[:30],
		"truncated":       good[:len(good)-5],
		"longer":          append(slices.Clone(good), 0),
		"flipped":         func() []byte { b := slices.Clone(good); b[asksHeader+20] ^= 1; return b }(),
		"one class":       at(48, 1),
		"huge classes":    at(48, 1<<30),
		"classes unorder": at(asksHeader+4, 5),
		"NaN":             at(asksHeader+12+4*7, math.Float32bits(float32(math.NaN()))),
		"infinite":        at(asksHeader+12, math.Float32bits(float32(math.Inf(-1)))),
	}
	for name, b := range cases {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := LoadAsks(path, key, n)
		if err == nil || errors.Is(err, ErrMiss) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "y"+AsksSuffix)
	if err := os.Symlink(path, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if _, _, err := LoadAsks(link, key, n); err == nil || errors.Is(err, ErrMiss) || !strings.Contains(err.Error(), link) {
		t.Errorf("a symbolic link: %v", err)
	}
	if err := StoreAsks(link, key, []int{0, 1}, unsure); err == nil {
		t.Error("written through a symbolic link")
	}
	if b, _ := os.ReadFile(path); !slices.Equal(b, good) {
		t.Error("the file a link names was changed")
	}
}
