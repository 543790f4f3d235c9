// Package cnn is a compact convolutional network for 28×28 grey images (MNIST's shape), written
// for the suspect scan: two 5×5 convolutions (12 and 24 channels, ReLU, 2×2 max-pooling), a
// fully connected layer of 128 units and a softmax over the classes, trained with Adam under a
// one-cycle learning rate on randomly augmented samples, optionally against label-smoothed
// targets (the recipe measured on MNIST for the label-error scan).
//
// Activations are stored channel-first over the whole batch, so each convolution is one matrix
// product of its kernels with an im2col matrix, and each convolution's output is laid out so
// that pooling is elementwise (see work). The products run on internal/gemm (AVX2+FMA or
// AVX-512 assembly where the CPU has them: on one core of a 2-core AMD EPYC, 100–120 GFLOP/s
// with AVX2; with AVX-512's 12×32 and 6×4 blocks, 136–195 GFLOP/s of thread CPU time on one
// core of a 2-core Xeon for the convolutions' shapes of BenchmarkGemm), and the
// elementwise layers (pooling and its gradient, the im2col and col2im copies, the augmentation
// warp, the gradient sums and the Adam step) on AVX2 kernels (kernels_amd64.s), with Go
// versions elsewhere. A batch is computed in two shards on two goroutines; train several
// networks (the folds of a cross-validation) in parallel for more cores. Pixels are read as
// bytes and scaled to 0–1 a sample at a time.
package cnn

import "errors"

var errNoSamples = errors.New("no samples to train on")
