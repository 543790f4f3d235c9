// Package cli is idxlabel's command line: the sub-commands (info, verify, convert, normalize,
// import, suspects, check, export, diff), their flags, messages and exit codes, and the advice a person
// needs ("use --force"). It never imports Fyne: the GUI is handed to Run by the program's entry.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"idxlabel/idx"
	"idxlabel/internal/clip"
	"idxlabel/pairfile"
	"idxlabel/store"
)

// command is one sub-command: its name, a one-line synopsis and the function that runs it.
type command struct {
	name, args, summary string
	run                 func(c *cli, args []string) error
}

// commands lists the sub-commands in the order usage prints them.
var commands = []command{
	{"info", "FILE...", "print magic number, dtype, dimensions and count; a class histogram for 1-D integer files", runInfo},
	{"verify", "IMAGES LABELS", "decode both files fully and check they form a valid pair", runVerify},
	{"convert", "[--force] IN OUT | [options] FILE IMAGES LABELS", "re-encode the IDX file IN as OUT (gzip when OUT ends in .gz), or write a Parquet, Kaggle CSV, .npy or .npz FILE as an IDX pair (convert --help lists the options); written atomically", runConvert},
	{"normalize", "[--center mass|box] [--ink auto|light|dark] [--threshold N] [--force] IN OUT.png", "one image to a 28×28 MNIST-style PNG (fit 20×20, centre of mass at 14,14)", runNormalize},
	{"import", "[--center mass|box] [--ink auto|light|dark] [--threshold N] [--no-normalize] [--size WxH] [--transpose] [--force] DIR IMAGES LABELS", "an ImageFolder tree (DIR/<class>/*.png|jpg|gif|bmp|webp|tiff; folders named by number keep it, named folders are numbered in sorted order as torchvision does, names written beside LABELS) to an IDX pair; colour images become grey by luminance; every file not imported is listed with its reason", runImport},
	{"suspects", "IMAGES LABELS [--method cnn|knn] [--seed N] [--seeds S] [--folds K] [--epochs E] [--top N|all] [--k K] [--no-cache]", "likely label errors as CSV index,label,suggested,score, ranked by a cross-validated CNN's out-of-fold self-confidence (or the kNN)", runSuspects},
	{"check", "[--kinds label,outlier,duplicate,leak] [--against IMAGES2 [LABELS2]] [--top N] [--report DIR] [--confusion FILE.csv] [--map FILE.csv] [--force] IMAGES [LABELS]", "dataset health: label errors, outliers, near-duplicates and leakage, as CSV kind,index,other,label,suggested,score (check --help explains each); --report DIR also writes an offline HTML report", runCheck},
	{"export", "[--format png|kaggle-csv|npz|parquet] [--classes numbers|names] [--splits LIST] [--force] IMAGES LABELS [IMAGES2 LABELS2 ...] OUT", "the pair as an ImageFolder tree of PNGs (OUT/<class>/<index>.png), Kaggle's CSV, NumPy's .npz (x, y) or a Hugging Face dataset (OUT/data/<split>-00000-of-00001.parquet per pair and OUT/README.md), written atomically; --force replaces only a file (kaggle-csv, npz) or an earlier export of the format", runExport},
	{"merge", "[--force] IMAGES1 LABELS1 IMAGES2 LABELS2 [IMAGESn LABELSn ...] OUT_IMAGES OUT_LABELS", "append pairs in the order given into one pair (same height and width; label dtypes widened; class names merged), streamed, written atomically", runMerge},
	{"split", "[--test FRACTION | --test-count N] [--stratify] [--group-column K] [--shuffle] [--seed S] [--force] IMAGES LABELS TRAIN_IMAGES TRAIN_LABELS TEST_IMAGES TEST_LABELS", "a train and a test pair holding every sample exactly once: drawn by the seed, per class (--stratify) or by whole groups (--group-column), in input order unless --shuffle", runSplit},
	{"subset", "[--classes LIST] [--per-class N] [--max N] [--indices FILE] [--exclude FILE] [--map OLD:NEW,...] [--shuffle] [--seed S] [--force] IMAGES LABELS OUT_IMAGES OUT_LABELS", "the samples chosen by class, count per class, total or index file, relabelled on the way (--map), in input order unless --shuffle", runSubset},
	{"suggest", "[--ask N] [--fast] [--accepted CSV] [--per-class P] [--seed S] [--no-cache] IMAGES [LABELS]", "labelling from scratch: --ask N prints CSV index of the N samples to label next (with no labels too); without it CSV index,suggested,confidence for every unlabelled sample, most confident first (calibrated probability); features learnt from the pixels kept beside the images", runSuggest},
	{"agree", "[--consensus OUT_LABELS] [--votes OUT_CSV] [--weighted] [--force] LABELS_1 LABELS_2 [LABELS_3 …]", "annotators' label files of the same images compared: CSV index,<name_1>,<name_2>,… of every sample whose labels differ; on stderr raw agreement, Cohen's κ (two files) or Fleiss' κ (more), per-class agreement; the consensus written by majority or --weighted (Dawid–Skene); exit 0 all agree, 1 some differ, 2 bad input", runAgree},
	{"errata", "[--note TEXT] [--votes VOTES_CSV] IMAGES OLD_LABELS NEW_LABELS", "CSV index,sha256,old,new,votes,note of every sample whose label changed, each named by its pixels' SHA-256, to stdout (> errata.csv)", runErrata},
	{"apply-errata", "[--force] ERRATA IMAGES LABELS OUT_LABELS", "LABELS with the errata applied, to OUT_LABELS: a row only where the sample's pixels hash to its sha256 and its label is its old one (found by hash after a deletion); each row left out listed with its reason; exit 0 all applied, 1 some left out, 2 bad input", runApplyErrata},
	{"similar", "[--k N] IMAGES INDEX|IMAGE", "the N (100) samples most like sample INDEX or an image file, as CSV index,similarity, most similar first: by the CNN's features of a scan kept beside IMAGES, else by pixel descriptors (stderr says which)", runSimilar},
	{"import-sheets", "[--layout FILE | --rows R --cols C --labels SPEC] [--writer-from index|name] [--size WxH] [--center mass|box] [--force] SHEETS_DIR_OR_FILES... IMAGES LABELS  (or --print-template FILE.pdf)", "scanned or photographed sheets of handwritten digits in a grid of ruled boxes to an IDX pair: each box through MNIST's preprocessing, labelled by the layout, the writer in label column 1 (int32 N×2); per sheet boxes filled, empty, flagged; a contact sheet beside IMAGES; docs/sheets.md", runImportSheets},
	{"version", "", "print idxlabel's version (also idxlabel --version)", runVersion},
	{"diff", "LABELS_A LABELS_B", "CSV index,a,b of the samples whose labels differ (a sample only one file has: the other side empty); exit 0 identical, 1 different, 2 not comparable", runDiff},
}

// cli carries the output streams of one invocation.
type cli struct {
	stdout, stderr io.Writer
	cmd            command // the sub-command running
	// now is the clock of progress lines, and progressAfter how long work runs before one shows
	// (progressLine): time.Now and progressAfter in Run.
	now           func() time.Time
	progressAfter time.Duration
}

// usageError is a mistake in the command line itself: it exits with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// Run executes one invocation and returns the exit status: 0 success, 1 a failure (one line on
// stderr, "idxlabel: FILE: what was wrong"), 2 a usage error. Arguments that name no sub-command
// but one or two files (IMAGES [LABELS]), or none at all, open the GUI: Run calls gui with them,
// and its error is reported like a sub-command's. Everything written to stderr goes through
// clip.NewWriter: a file's name in a message (an error's, a notice's, a progress line's) shows
// its control characters and bytes that are not UTF-8 escaped, so that it cannot send an
// escape code to the terminal; the failure line is one line (describe), a newline in a name
// escaped too.
func Run(args []string, stdout, stderr io.Writer, gui func(args []string) error) int {
	return newCLI(stdout, stderr, progressAfter).run(args, gui)
}

// newCLI is an invocation writing to stdout, and to stderr through clip.NewWriter (Run), whose
// progress lines show once work has run after.
func newCLI(stdout, stderr io.Writer, after time.Duration) *cli {
	return &cli{stdout: stdout, stderr: clip.NewWriter(stderr), now: time.Now, progressAfter: after}
}

// run is Run with c's streams and clock.
func (c *cli) run(args []string, gui func(args []string) error) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			c.usage(c.stdout)
			return 0
		case "-version", "--version":
			fmt.Fprintln(c.stdout, versionLine())
			return 0
		}
	}
	// A cap the person set but mistyped is not silently replaced by the default.
	if err := idx.CheckMaxDataEnv(); err != nil {
		return c.exit(usagef("%v", err))
	}
	if len(args) > 0 {
		for _, cmd := range commands {
			if cmd.name == args[0] {
				c.cmd = cmd
				return c.exit(cmd.run(c, args[1:]))
			}
		}
		if strings.HasPrefix(args[0], "-") {
			c.usage(c.stderr)
			return c.exit(usagef("unknown option %s", args[0]))
		}
		// Only files open the GUI: anything else is a misspelled command, not a file to try.
		if len(args) > 2 {
			return c.exit(usagef("%s is not a command, and the GUI opens at most two files (IMAGES [LABELS]); see idxlabel help", args[0]))
		}
		for _, a := range args {
			if fi, err := os.Stat(a); (err != nil || fi.IsDir()) && !pairfile.SavePending(a) {
				return c.exit(usagef("%s is neither a command nor a file; see idxlabel help", a))
			}
		}
	}
	return c.exit(gui(args))
}

// exit prints err the way every sub-command reports failure, with its advice, and maps it to an
// exit status: 0 none, 2 a usage error, 130 an interrupt (Ctrl+C cancels the command's context,
// as shells report a command ended by SIGINT), 1 anything else.
func (c *cli) exit(err error) int {
	if err == nil || err == errHelpShown {
		return 0
	}
	if errors.Is(err, context.Canceled) { // Ctrl+C (signal.NotifyContext) stopped the work
		fmt.Fprintln(c.stderr, "idxlabel: interrupted (Ctrl+C): stopped before any output file was replaced")
		return 130
	}
	if err != errReported {
		fmt.Fprintf(c.stderr, "idxlabel: %s\n", describe(err)+clip.Printable(advice(err)))
	}
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// describe formats err as "FILE: what was wrong", one line as the command line shows it
// (clip.Printable: a newline, an escape code or a byte that is not UTF-8 in a file's name shows
// escaped): an *fs.PathError loses its operation ("open /x: no such file" becomes "/x: no such
// file"); other errors already name their file.
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && err == error(pe) {
		return clip.Printable(pe.Path + ": " + pe.Err.Error())
	}
	return clip.Printable(err.Error())
}

func (c *cli) usage(w io.Writer) {
	fmt.Fprintln(w, "usage: idxlabel [IMAGES [LABELS]]     open the GUI (a demo dataset when no files are given)")
	fmt.Fprintln(w, "       idxlabel COMMAND [options] ARGS")
	fmt.Fprintln(w, "\ncommands:")
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-10s %s\n  %-10s   %s\n", cmd.name, cmd.args, "", cmd.summary)
	}
	fmt.Fprintln(w, "\nfiles:")
	fmt.Fprintln(w, "  Inputs must be regular files (a FIFO, socket, device or folder is refused at once).")
	fmt.Fprintln(w, "  Outputs are written atomically (a temporary .NAME.idxlabel-tmp-N beside them, then a")
	fmt.Fprintln(w, "  rename); an existing output must be a regular file, and a symbolic link is written")
	fmt.Fprintln(w, "  through to the file it names. An output may not be an input, a folder holding an input,")
	fmt.Fprintln(w, "  or another output. An existing output is replaced only with --force, and never when it")
	fmt.Fprintln(w, "  belongs to a pair open for editing, or whose journal holds edits not yet saved.")
}

// errHelpShown is returned by parse after -h or --help printed the sub-command's usage: exit
// status 0, nothing more printed.
var errHelpShown = errors.New("help shown")

// commandUsage prints the running sub-command's synopsis, its summary and each of fs's options
// with its usage text and default (an option with no usage text is not listed) to w.
func (c *cli) commandUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: idxlabel %s\n  %s\n", strings.TrimSpace(c.cmd.name+" "+c.cmd.args), c.cmd.summary)
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if f.Usage == "" {
			return
		}
		if first {
			fmt.Fprintln(w, "\noptions:")
			first = false
		}
		fmt.Fprintf(w, "  --%s\n        %s", f.Name, f.Usage)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// flags returns a FlagSet for a sub-command that reports errors instead of exiting.
func (c *cli) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses options anywhere among the arguments (flag alone stops at the first operand) and
// returns the operands, checking there are between min and max of them (max < 0: no limit).
// The first "--" ends the options: every argument after it is an operand, even one that starts
// with "-" (POSIX's utility syntax guideline 10). -h, -help and --help print the command's usage
// (commandUsage) on stdout and return errHelpShown.
func (c *cli) parse(fs *flag.FlagSet, args []string, min, max int) ([]string, error) {
	return c.parseHelp(fs, args, min, max, "")
}

// parseHelp is parse for a command with a help text of its own (help, when not ""): -h, -help
// and --help print help instead of the options' list, and a wrong number of operands is a usage
// error that points to --help.
func (c *cli) parseHelp(fs *flag.FlagSet, args []string, min, max int, help string) ([]string, error) {
	var operands, after []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, after = args[:i], args[i+1:]
	}
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			if help != "" {
				fmt.Fprint(c.stdout, help)
			} else {
				c.commandUsage(c.stdout, fs)
			}
			return nil, errHelpShown
		} else if err != nil {
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		operands = append(operands, args[0])
		args = args[1:]
	}
	operands = append(operands, after...)
	if len(operands) < min || (max >= 0 && len(operands) > max) {
		more := ""
		if help != "" {
			more = fmt.Sprintf(" (idxlabel %s --help explains)", c.cmd.name)
		}
		return nil, usagef("usage: idxlabel %s%s", strings.TrimSpace(c.cmd.name+" "+c.cmd.args), more)
	}
	return operands, nil
}

// claimOutputs is pairfile.ClaimOutputs, the one rule of every command-line writer, its
// *pairfile.OutputError a usage error (exit 2): outputs that are not inputs, folders holding them
// or each other; nothing in the way that may not be replaced (may: pairfile.FileOutput when nil;
// exit 1); without force no output that exists (pairfile.ErrExists: exit 1, "use --force"); the
// outputs' locks (a pair open for editing elsewhere: exit 1); and, even with force, no output of
// a pair whose journal holds unsaved edits (exit 1, naming the journal). Every writer calls it
// before reading its inputs, with its --force flag (forceUsage), writes under the claim, then
// releases it.
func claimOutputs(inputs, outputs []string, force bool, may pairfile.Replaceable) (*pairfile.Claim, error) {
	claim, err := pairfile.ClaimOutputs(inputs, outputs, force, may)
	var oe *pairfile.OutputError
	if errors.As(err, &oe) {
		return nil, usagef("%v", err)
	}
	return claim, err
}

// forceUsage is the --force flag's usage text for a writer whose outputs are files.
const forceUsage = "replace OUT if it exists (never a file of a pair open for editing, or whose journal holds unsaved edits)"

// checkOutputs is pairfile.CheckOutputs, its refusal a usage error.
func checkOutputs(inputs, outputs []string) error {
	if err := pairfile.CheckOutputs(inputs, outputs); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// openRead opens the pair images, labels ("" for none) read-only (store.Open) and prints the
// dataset's notices on stderr (store.Dataset.Notices: a class-name file it refused, naming the
// file), so that a command writing class numbers where names were refused says why, as the
// window does. Errors: store.Open's.
func (c *cli) openRead(images, labels string) (*store.Dataset, error) {
	ds, err := store.Open(images, labels, store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	for _, n := range ds.Notices() {
		fmt.Fprintf(c.stderr, "idxlabel: %s\n", n)
	}
	return ds, nil
}
