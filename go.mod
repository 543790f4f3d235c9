module idxlabel

go 1.26

require github.com/klauspost/compress v1.20.3

require (
	github.com/disintegration/imaging v1.6.2 // indirect
	golang.org/x/image v0.0.0-20191009234506-e7c1f5e7dbb8 // indirect
)
