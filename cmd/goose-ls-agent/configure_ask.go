// The questions of `goose-ls configure`: numbered choices that also take a name, a model list that also
// takes any model name, keys asked without echo and only where the provider takes one.

package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/config/secretstore"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/agent/provider/setup"
)

// askConfiguration asks every question and returns the answers; nothing is written.
func askConfiguration(ui prompter, out io.Writer, cfg *config.Config, store *secretstore.Store) (*answers, error) {
	cat := setup.Load(cfg.Dir)
	choices := cat.Choices()
	currentProvider, _ := cfg.ActiveProvider()
	currentModel, _ := cfg.ActiveModel()

	fmt.Fprintln(out, "goose-ls configure sets the provider and model goose and goose-ls use, and stores the provider's API key.")
	fmt.Fprintf(out, "Settings go to %s; keys go to goose's secret storage. Ctrl-C stops without changing anything.\n\n", setup.ConfigPath(cfg.Dir))
	if err := cat.CustomErr(); err != nil {
		fmt.Fprintf(out, "Note: a custom provider file could not be loaded (%v); goose then registers no declarative provider, so only goose-ls's own providers are listed.\n\n", err)
	}
	fmt.Fprintln(out, "Providers goose-ls runs:")
	current := -1
	for i, ch := range choices {
		mark := ""
		if ch.Name == currentProvider {
			current, mark = i, "  [current]"
		}
		fmt.Fprintf(out, "%4d  %s (%s)%s\n", i+1, ch.DisplayName, ch.Name, mark)
	}
	prompt := "Provider, by number or name: "
	if current >= 0 {
		prompt = fmt.Sprintf("Provider, by number or name [%s]: ", choices[current].Name)
	}
	var ch setup.Choice
	for {
		answer, err := ui.line(prompt)
		if err != nil {
			return nil, err
		}
		if answer == "" && current >= 0 {
			ch = choices[current]
			break
		}
		if i, ok := pick(answer, len(choices), func(i int) []string { return []string{choices[i].Name, choices[i].DisplayName} }); ok {
			ch = choices[i]
			break
		}
		fmt.Fprintf(out, "  %q is not in the list: type a number from 1 to %d or a provider's name.\n", answer, len(choices))
	}
	a := &answers{choice: ch, settings: map[string]string{}}

	for _, s := range ch.Settings {
		have, _ := cfg.Get(s.Name)
		if s.Secret {
			have, _ = cfg.GetSecret(s.Name) // a secret setting lives where goose keeps secrets
		}
		v, err := askRequired(ui, out, s.Name, ch.DisplayName, s.Secret, strings.TrimSpace(have))
		if err != nil {
			return nil, err
		}
		if s.Secret {
			if v != "" {
				a.secrets = append(a.secrets, secretAnswer{s.Name, v})
			}
		} else {
			a.settings[s.Name] = v
		}
	}

	deployment := a.settings["AZURE_OPENAI_DEPLOYMENT_NAME"] // azure_openai's model is its deployment by default
	model, err := askModel(ui, out, ch, currentProvider, currentModel, deployment)
	if err != nil {
		return nil, err
	}
	a.model = model

	if ch.Key == "" {
		fmt.Fprintf(out, "%s takes no API key.\n", ch.DisplayName)
		return a, nil
	}
	// a key the provider can run without here (goose's openai at a server of the user's own) is optional
	required := ch.KeyRequired
	if required {
		without := func(k string) (string, bool) {
			if k == ch.Key {
				return "", false
			}
			if v, ok := a.settings[k]; ok {
				return v, true
			}
			if v, ok := cfg.Get(k); ok {
				return v, true
			}
			return cfg.GetSecret(k)
		}
		var missing *setup.Missing
		required = errors.As(cat.Check(configure.Lookup(without), ch.Name), &missing) && missing.Name == ch.Key
	}
	if _, ok := cfg.Env()(ch.Key); ok {
		fmt.Fprintf(out, "Note: %s is set in this environment; while it is, goose and goose-ls use that value, not the stored one.\n", ch.Key)
	}
	_, stored := store.Lookup(ch.Key)
	for {
		var prompt string
		switch {
		case stored:
			prompt = fmt.Sprintf("%s is stored already. Press Enter to keep it, or paste a new key (typing is hidden): ", ch.Key)
		case required:
			prompt = fmt.Sprintf("%s for %s (typing is hidden): ", ch.Key, ch.DisplayName)
		default:
			prompt = fmt.Sprintf("%s for %s, if it needs one (typing is hidden; Enter for none): ", ch.Key, ch.DisplayName)
		}
		key, err := ui.hidden(prompt)
		if err != nil {
			return nil, err
		}
		if key == "" && required && !stored {
			fmt.Fprintf(out, "  %s needs an API key to run; paste one, or press Ctrl-C to stop.\n", ch.DisplayName)
			continue
		}
		if key != "" {
			a.secrets = append(a.secrets, secretAnswer{ch.Key, key})
		}
		return a, nil
	}
}

// askModel offers the provider's known models (the current one first when it is this provider's and not
// listed); any other name is taken as typed.
func askModel(ui prompter, out io.Writer, ch setup.Choice, currentProvider, currentModel, fallback string) (string, error) {
	models := slices.Clone(ch.Models)
	def := ch.DefaultModel()
	if def == "" {
		def = fallback
	}
	if ch.Name == currentProvider && currentModel != "" {
		def = currentModel
		if !slices.Contains(models, currentModel) {
			models = append([]string{currentModel}, models...)
		}
	}
	prompt := "Model: "
	switch {
	case len(models) == 0 && def != "":
		prompt = fmt.Sprintf("Model [%s]: ", def)
	case len(models) == 0:
		fmt.Fprintf(out, "%s lists no models: type the name of one your server serves.\n", ch.DisplayName)
	default:
		fmt.Fprintf(out, "Models of %s:\n", ch.DisplayName)
		for i, m := range models {
			var tags []string
			if m == ch.DefaultModel() {
				tags = append(tags, "default")
			}
			if ch.Name == currentProvider && m == currentModel {
				tags = append(tags, "current")
			}
			label := m
			if len(tags) > 0 {
				label += " (" + strings.Join(tags, ", ") + ")"
			}
			fmt.Fprintf(out, "%4d  %s\n", i+1, label)
		}
		prompt = fmt.Sprintf("Model, by number or any model name [%s]: ", def)
	}
	for {
		answer, err := ui.line(prompt)
		if err != nil {
			return "", err
		}
		switch {
		case answer == "" && def != "":
			return def, nil
		case answer == "":
			fmt.Fprintln(out, "  a model name is needed.")
			continue
		}
		if i, ok := pick(answer, len(models), func(i int) []string { return []string{models[i]} }); ok {
			return models[i], nil
		}
		if _, err := strconv.Atoi(answer); err == nil {
			fmt.Fprintf(out, "  there is no model %s in the list: type a number from 1 to %d or a model's name.\n", answer, len(models))
			continue
		}
		if strings.IndexFunc(answer, unicode.IsControl) >= 0 || strings.ContainsAny(answer, " \t") {
			fmt.Fprintln(out, "  a model name has no spaces or control characters.")
			continue
		}
		return answer, nil
	}
}

// askRequired asks for a setting the provider cannot run without (have: its value now, kept on Enter).
func askRequired(ui prompter, out io.Writer, name, display string, secret bool, have string) (string, error) {
	for {
		var v string
		var err error
		switch {
		case secret && have != "":
			v, err = ui.hidden(fmt.Sprintf("%s (needed by %s) is set. Press Enter to keep it, or type a new value (typing is hidden): ", name, display))
		case secret:
			v, err = ui.hidden(fmt.Sprintf("%s (needed by %s; typing is hidden): ", name, display))
		case have != "":
			v, err = ui.line(fmt.Sprintf("%s (needed by %s) [%s]: ", name, display, have))
		default:
			v, err = ui.line(fmt.Sprintf("%s (needed by %s): ", name, display))
		}
		if err != nil {
			return "", err
		}
		switch {
		case v != "":
			return v, nil
		case have != "" && secret:
			return "", nil // kept where it is
		case have != "":
			return have, nil
		}
		fmt.Fprintf(out, "  %s cannot run without %s.\n", display, name)
	}
}

// pick reads answer as a 1-based number, else as one of the names of an entry (exactly, then ignoring
// case).
func pick(answer string, n int, names func(int) []string) (int, bool) {
	if i, err := strconv.Atoi(answer); err == nil {
		return i - 1, i >= 1 && i <= n
	}
	for _, fold := range []bool{false, true} {
		for i := range n {
			for _, name := range names(i) {
				if name == answer || (fold && strings.EqualFold(name, answer)) {
					return i, true
				}
			}
		}
	}
	return 0, false
}
