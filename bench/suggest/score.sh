#!/bin/sh
# The labelling-from-scratch score through the command line: builds bin/idxlabel, then on
# MNIST's test set (10,000 digits, no labels) runs five rounds of `idxlabel suggest --ask 20`
# answered with the true labels, then `idxlabel suggest`, and prints the share of the other
# 9,900 suggested right (bench/suggest/main.go; extra arguments go to it, e.g. -seed 2, or
# -asks 10,10,30,50,100 -at 10,20,50,100,200 -fast -accept 0.95 for the curve).
# Usage: bench/suggest/score.sh [flags]   (MNIST=../shared/data/mnist by default)
set -e
cd "$(dirname "$0")/../.."
MNIST=${MNIST:-../shared/data/mnist}
make build >/dev/null
go run ./bench/suggest -bin bin/idxlabel "$@" "$MNIST/t10k-images-idx3-ubyte.gz" "$MNIST/t10k-labels-idx1-ubyte.gz"
