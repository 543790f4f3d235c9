package scan

import (
	"os"

	"idxlabel/suspect"
)

// quickCNNEnv names the environment variable that, set to "1", makes the window's CNNs (the
// scan every view shares, the model that suggests labels) train the short recipe the ui tests
// use: 2 folds, 1 seed, 2 epochs. It exists for the real-window tests (scripts/checkdup.sh),
// which must stay under a minute; its rankings are much weaker than the default recipe's, so
// it is not for real use. Any other value (or none) keeps the defaults.
const quickCNNEnv = "IDXLABEL_QUICK_CNN"

// OptionsFromEnv returns the CNNs' options: the short recipe when quickCNNEnv is "1", the
// defaults (zero) otherwise.
func OptionsFromEnv() suspect.CNNOptions {
	if os.Getenv(quickCNNEnv) == "1" {
		return suspect.CNNOptions{Folds: 2, Seeds: 1, Epochs: 2}
	}
	return suspect.CNNOptions{}
}
