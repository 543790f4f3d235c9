module idxlabel

go 1.26

require github.com/klauspost/compress v1.20.3
