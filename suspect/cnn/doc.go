// Package cnn is a compact convolutional network for 28×28 grey images (MNIST's shape), written
// for the suspect scan: two 5×5 convolutions (12 and 24 channels, ReLU, 2×2 max-pooling), a
// fully connected layer of 128 units and a softmax over the classes, trained with Adam under a
// one-cycle learning rate on randomly augmented samples (the recipe measured in issue 12).
//
// Activations are stored channel-first over the whole batch, so each convolution is one matrix
// product of its kernels with an im2col matrix. The products run on AVX2+FMA assembly kernels
// where the CPU has them (internal/gemm: 56–74 GFLOP/s on one core of a 2-core Xeon, against
// 7–21 for gonum's float32 BLAS; BenchmarkGemm) and on gonum's Sgemm elsewhere. A batch is
// computed in two shards on two goroutines; train several networks (the folds of a
// cross-validation) in parallel for more cores.
// Pixels are read as bytes and scaled to 0–1 a batch at a time.
package cnn

import "errors"

var errNoSamples = errors.New("no samples to train on")
