// Package idx reads and writes the IDX file format, the format of MNIST and its siblings
// (Fashion-MNIST, KMNIST, EMNIST, QMNIST).
//
// An IDX file is a magic number (two zero bytes, a dtype byte — 0x08 ubyte, 0x09 sbyte,
// 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64 — and a rank byte), one big-endian
// uint32 per dimension, then the data in C order (last dimension fastest), every multi-byte
// value big-endian. MNIST's images are 0x00000803, N×28×28 ubyte; its labels 0x00000801,
// N ubyte. Files may be gzipped (*.gz), as MNIST ships them.
//
// DecodeHeader reads only the header, as image.DecodeConfig does; Decode and ReadFile read a
// whole Array, checking the size a header declares against the bytes actually present before
// allocating it; OpenFile streams the data of a file too large to hold; Encode and
// WritePending write one. Malformed input is a *FormatError naming what was expected and what
// was found, matched with errors.Is against the sentinels ErrTruncated and the others in
// errors.go. Nothing here imports the rest of the program.
package idx
