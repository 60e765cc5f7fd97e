// goose's permission modes as ACP `modes`, and goose's provider, mode and model config options (session/set_mode,
// session/set_config_option).

package acp

import (
	"context"
	"sort"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/agent/provider/registry"
)

// gooseModes are goose's modes in goose's order, named by their ids with goose's descriptions (its
// GooseMode messages, as its response_builder.rs sends them).
var gooseModes = []struct {
	id    agent.Mode
	about string
}{
	{agent.ModeAuto, "Automatically approve tool calls"},
	{agent.ModeApprove, "Ask before every tool call"},
	{agent.ModeSmartApprove, "Ask only for sensitive tool calls"},
	{agent.ModeChat, "Chat only, no tool calls"},
}

// Config option ids, in goose's order.
const (
	optionProvider = "provider"
	optionMode     = "mode"
	optionModel    = "model"
)

// defaultProvider is goose's provider option for "whatever goose's configuration names".
const defaultProvider, defaultProviderLabel = "goose", "Goose (Default)"

func (s *acpSession) modeState() *sdk.SessionModeState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(s.mode)}
	for _, m := range gooseModes {
		st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m.id), Name: string(m.id), Description: sdk.Ptr(m.about)})
	}
	return st
}

// currentProvider is the provider option's value: the session's choice, else the configured provider,
// else goose's default entry.
func (s *acpSession) currentProvider() string {
	switch {
	case s.provider != "":
		return s.provider
	case s.configured != "":
		return s.configured
	}
	return defaultProvider
}

// configOptions are goose's provider, mode and model options, in that order.
func (s *acpSession) configOptions() []sdk.SessionConfigOption {
	s.mu.Lock()
	mode, model, current := s.mode, s.model, s.currentProvider()
	s.mu.Unlock()
	providers := sdk.SessionConfigSelectOptionsUngrouped{}
	for _, p := range providerChoices(current) {
		providers = append(providers, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(p.id), Name: p.name})
	}
	providerOpt := sdk.NewSessionConfigOptionSelect(sdk.SessionConfigValueId(current), sdk.SessionConfigSelectOptions{Ungrouped: &providers})
	providerOpt.Select.Id, providerOpt.Select.Name = optionProvider, "Provider"
	modes := sdk.SessionConfigSelectOptionsUngrouped{}
	for _, m := range gooseModes {
		modes = append(modes, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(m.id), Name: string(m.id), Description: sdk.Ptr(m.about)})
	}
	modeOpt := sdk.NewSessionConfigOptionSelect(sdk.SessionConfigValueId(mode), sdk.SessionConfigSelectOptions{Ungrouped: &modes})
	modeOpt.Select.Id, modeOpt.Select.Name, modeOpt.Select.Category = optionMode, "Mode", sdk.Ptr(sdk.SessionConfigOptionCategoryMode)
	models := sdk.SessionConfigSelectOptionsUngrouped{}
	for _, m := range knownModels(model) {
		models = append(models, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(m), Name: m})
	}
	modelOpt := sdk.NewSessionConfigOptionSelect(sdk.SessionConfigValueId(model), sdk.SessionConfigSelectOptions{Ungrouped: &models})
	modelOpt.Select.Id, modelOpt.Select.Name, modelOpt.Select.Category = optionModel, "Model", sdk.Ptr(sdk.SessionConfigOptionCategoryModel)
	return []sdk.SessionConfigOption{providerOpt, modeOpt, modelOpt}
}

type providerChoice struct{ id, name string }

// providerChoices is goose's provider list: its default entry first, then the providers goose-ls runs
// (native and declarative, with the current one when it is neither) sorted by id.
func providerChoices(current string) []providerChoice {
	byID := map[string]string{}
	for _, id := range configure.Providers { // goose's display names for them (configure.Native)
		n, _ := configure.Native(id)
		byID[id] = n.DisplayName
	}
	for _, p := range registry.Builtins() {
		byID[p.Name] = p.DisplayName
	}
	if _, ok := byID[current]; !ok && current != defaultProvider {
		byID[current] = current
	}
	list := make([]providerChoice, 0, len(byID)+1)
	for id, name := range byID {
		list = append(list, providerChoice{id, name})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].id < list[j].id })
	return append([]providerChoice{{defaultProvider, defaultProviderLabel}}, list...)
}

// knownModels is the current model first, then the models goose's registry lists beside it.
func knownModels(current string) []string {
	out := []string{}
	if current != "" {
		out = append(out, current)
	}
	for _, p := range registry.Builtins() {
		listed := false
		for _, m := range p.Models {
			listed = listed || m.Name == current
		}
		if !listed {
			continue
		}
		for _, m := range p.Models {
			if m.Name != current {
				out = append(out, m.Name)
			}
		}
		break
	}
	return out
}

// SetSessionMode switches the mode for the next tool calls of this session.
func (a *Agent) SetSessionMode(ctx context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	if err := a.setMode(ctx, s, string(p.ModeId)); err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	return sdk.SetSessionModeResponse{}, nil
}

// SetSessionConfigOption sets the mode or the model.
func (a *Agent) SetSessionConfigOption(ctx context.Context, p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	v := p.ValueId
	if v == nil {
		return sdk.SetSessionConfigOptionResponse{}, sdk.NewInvalidParams(map[string]any{"error": "goose-ls's options are selects"})
	}
	s, err := a.session(v.SessionId)
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	switch string(v.ConfigId) {
	case optionProvider:
		if err := a.setProvider(s, string(v.Value)); err != nil {
			return sdk.SetSessionConfigOptionResponse{}, err
		}
	case optionMode:
		if err := a.setMode(ctx, s, string(v.Value)); err != nil {
			return sdk.SetSessionConfigOptionResponse{}, err
		}
	case optionModel:
		if v.Value == "" {
			return sdk.SetSessionConfigOptionResponse{}, sdk.NewInvalidParams(map[string]any{"error": "a model name is needed"})
		}
		s.mu.Lock()
		s.model = string(v.Value)
		s.mu.Unlock()
	default:
		return sdk.SetSessionConfigOptionResponse{}, sdk.NewInvalidParams(map[string]any{"configId": v.ConfigId, "error": "unknown option"})
	}
	return sdk.SetSessionConfigOptionResponse{ConfigOptions: s.configOptions()}, nil
}

// setProvider switches the session's provider ("goose": the configured one) and takes its default
// model, as goose does; a provider that cannot be set up is refused with its reason.
func (a *Agent) setProvider(s *acpSession, id string) error {
	name := id
	if id == defaultProvider {
		name = ""
	}
	if id == "" {
		return sdk.NewInvalidParams(map[string]any{"error": "a provider name is needed"})
	}
	s.mu.Lock()
	cfg := s.settings
	s.mu.Unlock()
	setup, err := a.host.Provider(cfg, provider.Settings{Provider: name})
	if err != nil {
		return sdk.NewInvalidParams(map[string]any{"configId": optionProvider, "error": err.Error()})
	}
	s.mu.Lock()
	s.provider, s.model, s.contextLimit = name, setup.Model, setup.ContextLimit
	s.mu.Unlock()
	return nil
}

// setMode validates and sets the mode, then tells the client (current_mode_update).
func (a *Agent) setMode(ctx context.Context, s *acpSession, id string) error {
	mode, err := agent.ParseMode(id)
	if err != nil || id == "" {
		return sdk.NewInvalidParams(map[string]any{"modeId": id, "error": "unknown mode; one of auto, approve, smart_approve, chat"})
	}
	s.mu.Lock()
	s.mode = mode
	s.mu.Unlock()
	a.update(ctx, s.id, sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(mode)}})
	return nil
}
