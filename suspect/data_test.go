package suspect

import (
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/sample"
)

// mnistData returns n samples built from the real t10k files as scan input.
func mnistData(tb testing.TB, n int) sample.Set {
	images, labels := mnisttest.Load(tb)
	if n != images.Dims[0] {
		images, labels = mnisttest.Build(tb, images, labels, n)
	}
	ls := make([]int, n)
	for i := range ls {
		ls[i] = int(labels.Data[i])
	}
	return sample.Set{N: n, H: 28, W: 28, Pixels: func(i int) []byte { return images.Data[i*784 : (i+1)*784] }, Labels: ls}
}

// mnistTrainData returns the real 60,000-sample training set as scan input.
func mnistTrainData(tb testing.TB) sample.Set {
	images, labels, err := mnisttest.ReadPair(mnisttest.Path(tb, mnisttest.TrainImages), mnisttest.Path(tb, mnisttest.TrainLabels))
	if err != nil {
		tb.Fatal(err)
	}
	n := images.Dims[0]
	ls := make([]int, n)
	for i := range ls {
		ls[i] = int(labels.Data[i])
	}
	return sample.Set{N: n, H: 28, W: 28, Pixels: func(i int) []byte { return images.Data[i*784 : (i+1)*784] }, Labels: ls}
}
