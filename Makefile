# idxlabel — see README.md. `make run` and `make test` install what they need first.
GO      ?= go
# Recursively expanded: evaluated when a recipe runs, after `deps` has installed libdeflate.
TAGS     = -tags $(shell scripts/tags.sh)
BIN     := bin/idxlabel
# The same program built with -tags timing: it prints the time to its first tiles and when each
# key was handled (ui/timing.go), for bench/gui.sh and make savelat.
TIMING  := bin/idxlabel-timing
ARGS    ?=
MNIST   ?= $(or $(IDXLABEL_MNIST),../shared/data/mnist)
export LANG := en_US.UTF-8

.PHONY: deps build build-timing run test bench torchvision compare lint fuzz monkey savelat package windows windows-check clean formats-check

deps:
	@scripts/deps.sh

build:
	$(GO) build $(TAGS) -o $(BIN) .

build-timing:
	$(GO) build -tags $(shell scripts/tags.sh),timing -o $(TIMING) .

run: deps build
	./$(BIN) $(ARGS)

test: deps lint build
	@scripts/deps.sh python3-numpy   # numpy.load reads our .npz exports (export tests)
	@if [ ! -f "$(MNIST)/t10k-images-idx3-ubyte.gz" ]; then \
	  if [ "$$IDXLABEL_REQUIRE_MNIST" = 1 ]; then echo "make test: the real MNIST files are not in $(MNIST), and IDXLABEL_REQUIRE_MNIST=1 requires them" >&2; exit 1; fi; \
	  echo "make test: no real MNIST files in $(MNIST): the tests that need them skip, each saying so (IDXLABEL_REQUIRE_MNIST=1 makes that a failure)"; fi
	$(GO) test $(TAGS) -count=1 -timeout 30m ./...   # the hang detector: the ui package alone runs 6 min at load 15, 10 min (go test's default) at load 30
	$(GO) test -count=1 ./idx   # the pure-Go gzip path, as built without libdeflate
	scripts/smoke.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/focus.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/seam.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/keysave.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/rank.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/scratch.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/drawquit.sh $(BIN)
	scripts/drawfocus.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/dialogs.sh $(BIN)
	scripts/checkdup.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/mapview.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/scancache.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/suggestloop.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/acceptreopen.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # accepted suggestions still pseudo-labels after a save and reopen, and in a pair Save Shown As derives
	scripts/reviewreopen.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # a review's decisions (→ on suspects) still decided after a save, a quit and a reopen
	scripts/suggestcursor.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # a round of the Suggested list leaves the cursor, and the next key, on the sample the person had
	scripts/scratchlabel.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # 10,000 images to a label file: 4.5–5.5 min wall at load 7–22
	scripts/buildui.sh $(BIN)
	scripts/importui.sh $(BIN)
	scripts/sheetsui.sh $(BIN)
	scripts/formatsui.sh $(BIN)
	scripts/newuser.sh $(BIN)
	scripts/monkey.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz 1 300
	scripts/forcecrash.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/journalfull.sh $(BIN)
	scripts/similarui.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/annotators.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz
	scripts/stalemarks.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # accepted marks that no longer fit the pair: a note on open, none accepted, gone after the next save
	scripts/cancelbutton.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # a job's progress dialog: its Cancel button, clicked, cancels the import or append
	scripts/suspectscancel.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # Ctrl+K's progress: Escape and its Cancel button cancel the scan; a digit typed during it is applied where typed
	scripts/statusstays.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # a status bar message stays through a resize, a scan's result and a Suggested round, until the cursor moves
	scripts/cancelout.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # edits typed back show saved; after kill -9 their journal is not offered, after Ctrl+Q none is left; a --force writer over it writes and removes it
	scripts/unsavedlive.sh $(BIN)   # a new dataset's journal a live window writes is not offered to another idxlabel; after kill -9 it is, and restores
	scripts/exportcancel.sh $(BIN)   # File → Export… cancelled midway (CSV, Parquet, PNG) says so on the status bar and leaves nothing beside its target; a t10k pair exported to the end is the test split, as the CLI names it
	scripts/linklock.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # a window that opened a pair through symbolic links locks the files they name: a --force writer of those files is refused, live and after kill -9
	scripts/questionoverjob.sh $(BIN)   # a question asked over a job's progress (Ctrl+Q during an export) stays up and answers Escape when the job ends
	scripts/appendnote.sh $(BIN)   # Append Dataset tells what opening the appended pair found (a damaged marks file), as Open does
	scripts/readonlyopen.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # a pair in a folder that cannot be written (a read-only mount, unshare -m as root) says so at open; the keys typed after the note are journaled in the per-user folder, Save is refused, the edits are offered after kill -9
	READONLYOPEN_LOCKS_LEFT=1 scripts/readonlyopen.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # the same, lock files left beside the pair before the folder became read-only
	scripts/emptycheck.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz   # a key typed on the health check's empty view, while the check runs, changes nothing and says so and why; once its list fills a digit relabels the sample shown

# The quick inner loop: go test -short leaves out the tests that take more than a couple of
# seconds (CNN trainings, large generated sets, kill and memory tests); make test runs them all.
.PHONY: test-short
test-short:
	$(GO) test $(TAGS) -short ./...

bench:
	$(GO) test $(TAGS) -run '^$$' -bench . -benchmem ./...

# torchvision's ImageFolder loads `export --classes names` and every label is its class index
# (the Go tests skip it without torchvision; installing it from Debian took ~6 min, so make test
# does not; export's TestClassFoldersSortInClassOrder checks the folder order there).
torchvision:
	@scripts/deps.sh python3-torchvision
	$(GO) test $(TAGS) -count=1 -run Torchvision -v ./cli

# Our Parquet export read back by readers written apart from ours, hyparquet (JavaScript) and
# pngjs, installed with npm into .scratch/formatscheck (gitignored); labels and every decoded
# pixel compared (formats' TestHyparquetReadsOurParquet, with numpy's checks of the CSV and .npz).
FORMATSCHECK := $(CURDIR)/.scratch/formatscheck
formats-check:
	@command -v npm >/dev/null || scripts/deps.sh nodejs npm
	@scripts/deps.sh python3-numpy
	mkdir -p $(FORMATSCHECK)
	npm install --prefix $(FORMATSCHECK) --no-audit --no-fund --silent hyparquet@1.33.0 pngjs@7.0.0
	IDXLABEL_FORMATSCHECK=$(FORMATSCHECK) $(GO) test $(TAGS) -count=1 -run 'Hyparquet|Numpy' -v ./formats

# Times our decoder against numpy+gzip and torchvision on the same files, in one run.
compare:
	@scripts/deps.sh python3-numpy python3-torchvision
	bench/compare.sh

lint:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(TAGS) ./...

# FuzzDecode covers Decode, ReadFile (with libdeflate when installed) and streaming (OpenFile).
# Seeded random input in a real window: make monkey SEED=7 N=1500.
SEED ?= 1
N    ?= 1500
monkey: deps build
	scripts/monkey.sh $(BIN) $(MNIST)/t10k-images-idx3-ubyte.gz $(SEED) $(N)

# Measured in a real window (a measurement, not part of `make test`): how long the
# window takes to answer arrow keys while Ctrl+S saves a 60,000-sample gzip pair (target ≤ 50 ms).
savelat: deps build-timing
	@scripts/deps.sh libxtst6
	scripts/savelat.sh $(TIMING) $(MNIST)/t10k-images-idx3-ubyte.gz $(MNIST)/t10k-labels-idx1-ubyte.gz

fuzz: deps
	$(GO) test $(TAGS) ./idx -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 5m

# FuzzBuild feeds arbitrary pairs to merge, split and subset (builder.Build) with drawn options.
# Go's fuzzer reports a worker's executions only when it hands back an input, so its "execs"
# count can stand still for many seconds while the workers run.
.PHONY: fuzz-build
fuzz-build: deps
	$(GO) test $(TAGS) ./builder -run '^$$' -fuzz '^FuzzBuild$$' -fuzztime 5m

# Installable builds in dist/, made with the fyne tool pinned in go.mod (scripts/package.sh):
# dist/idxlabel-<version>-linux-amd64.tar.xz (binary, .desktop entry, icon, IDX MIME types and a
# Makefile: tar -xJf it, then sudo make install) and dist/idxlabel-<version>-windows-amd64.exe
# (cross-compiled; only this target installs the mingw-w64 cross compiler). The version is
# FyneApp.toml's. windows-check runs the .exe's `info` under Wine where Wine is installed.
package:
	@scripts/deps.sh xz-utils
	GO=$(GO) scripts/package.sh linux

windows:
	@scripts/deps.sh gcc-mingw-w64-x86-64 file
	GO=$(GO) scripts/package.sh windows

windows-check: windows
	scripts/wine.sh dist/idxlabel-$$(scripts/package.sh version)-windows-amd64.exe info $(MNIST)/t10k-images-idx3-ubyte.gz

clean:
	rm -rf bin dist
