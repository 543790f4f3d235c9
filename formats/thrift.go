package formats

import (
	"errors"
	"fmt"
)

// Parquet's metadata (the footer, each page's header) is Thrift's compact protocol. A Parquet
// library decodes it by allocating the lists and strings it declares before it reads them, so a
// few bytes claiming a list of two billion structs cost gigabytes. skimThrift walks the encoding
// first, checks that every list, set, map and string it declares is present in the bytes, and
// estimates what decoding them allocates: the library then decodes only what fits a budget.

// Thrift compact protocol types (the low nibble of a field header, or of a list's element
// type).
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
	tUUID   = 13
)

// structCost is what decoding one struct of a list allocates at most, in bytes: above the
// largest struct of Parquet's metadata as Go holds it (a column chunk: 560 bytes).
const structCost = 1024

// maxThriftDepth is the deepest nesting of structs and lists skimThrift follows.
const maxThriftDepth = 64

// errThrift is a skimThrift failure: bytes that are not the compact protocol, or declare more
// than they hold.
var errThrift = errors.New("damaged metadata")

// thriftSkim walks one compact-protocol struct in b.
type thriftSkim struct {
	b     []byte
	i     int
	alloc int64 // the estimated allocation of the lists and strings walked
	// field (may be nil) is called for each integer or boolean field of a struct with the field
	// ids from the outermost struct (path) and its value.
	field func(path []int16, v int64)
	path  []int16
}

// skimThrift walks the struct at the start of b, calling field (may be nil) for its integer
// and boolean fields, and returns the bytes it takes and the estimated allocation of decoding
// it. Errors: errThrift (wrapped, saying what) for bytes that end early, a list or string longer
// than the bytes left, an unknown type, or nesting deeper than maxThriftDepth.
func skimThrift(b []byte, field func(path []int16, v int64)) (n int, alloc int64, err error) {
	s := &thriftSkim{b: b, field: field}
	if err := s.structure(0); err != nil {
		return 0, 0, err
	}
	return s.i, s.alloc, nil
}

func (s *thriftSkim) fail(what string) error {
	return fmt.Errorf("%w: %s at byte %d", errThrift, what, s.i)
}

func (s *thriftSkim) byte1() (byte, error) {
	if s.i >= len(s.b) {
		return 0, s.fail("ends early")
	}
	s.i++
	return s.b[s.i-1], nil
}

func (s *thriftSkim) uvarint() (uint64, error) {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c, err := s.byte1()
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, s.fail("a varint of more than 10 bytes")
}

func (s *thriftSkim) zigzag() (int64, error) {
	u, err := s.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// size reads a length or count and checks that at least per·n bytes are left.
func (s *thriftSkim) size(per int) (int, error) {
	u, err := s.uvarint()
	if err != nil {
		return 0, err
	}
	if u > uint64(len(s.b)-s.i)/uint64(max(per, 1)) {
		return 0, s.fail(fmt.Sprintf("declares %d items with %d bytes left", u, len(s.b)-s.i))
	}
	return int(u), nil
}

func (s *thriftSkim) structure(depth int) error {
	if depth > maxThriftDepth {
		return s.fail("nested too deep")
	}
	var id int16
	for {
		h, err := s.byte1()
		if err != nil {
			return err
		}
		t := h & 0x0f
		if t == tStop {
			return nil
		}
		if d := h >> 4; d != 0 {
			id += int16(d)
		} else {
			v, err := s.zigzag()
			if err != nil {
				return err
			}
			id = int16(v)
		}
		s.path = append(s.path, id)
		err = s.value(t, depth, true)
		s.path = s.path[:len(s.path)-1]
		if err != nil {
			return err
		}
	}
}

// value walks one value of type t; inStruct: a field (a boolean carries its value in its type),
// else an element (a boolean takes a byte).
func (s *thriftSkim) value(t byte, depth int, inStruct bool) error {
	report := func(v int64) {
		if inStruct && s.field != nil {
			s.field(s.path, v)
		}
	}
	switch t {
	case tTrue, tFalse:
		if !inStruct {
			_, err := s.byte1()
			return err
		}
		report(int64(2 - t)) // true 1, false 0
	case tByte:
		c, err := s.byte1()
		report(int64(int8(c)))
		return err
	case tI16, tI32, tI64:
		v, err := s.zigzag()
		report(v)
		return err
	case tDouble:
		if len(s.b)-s.i < 8 {
			return s.fail("ends early")
		}
		s.i += 8
	case tUUID:
		if len(s.b)-s.i < 16 {
			return s.fail("ends early")
		}
		s.i += 16
	case tBinary:
		n, err := s.size(1)
		if err != nil {
			return err
		}
		s.i += n
		s.alloc += int64(n) + 24
	case tList, tSet:
		h, err := s.byte1()
		if err != nil {
			return err
		}
		et, n := h&0x0f, int(h>>4)
		if n == 15 {
			if n, err = s.size(1); err != nil {
				return err
			}
		} else if n > len(s.b)-s.i {
			return s.fail("a list longer than the bytes left")
		}
		s.alloc += int64(n) * elemCost(et)
		for range n {
			if err := s.value(et, depth+1, false); err != nil {
				return err
			}
		}
	case tMap:
		n, err := s.size(2)
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		kv, err := s.byte1()
		if err != nil {
			return err
		}
		s.alloc += int64(n) * (elemCost(kv>>4) + elemCost(kv&0x0f))
		for range n {
			if err := s.value(kv>>4, depth+1, false); err != nil {
				return err
			}
			if err := s.value(kv&0x0f, depth+1, false); err != nil {
				return err
			}
		}
	case tStruct:
		return s.structure(depth + 1)
	default:
		return s.fail(fmt.Sprintf("unknown type %d", t))
	}
	return nil
}

// elemCost is the allocation estimate of one element of type t in a list (a string's bytes are
// added as it is walked).
func elemCost(t byte) int64 {
	switch t {
	case tStruct:
		return structCost
	case tList, tSet, tMap, tBinary:
		return 24
	}
	return 8
}
