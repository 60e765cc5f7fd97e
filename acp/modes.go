// goose's permission modes as ACP `modes` and the mode and model as config options (session/set_mode,
// session/set_config_option).

package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider/registry"
)

// gooseModes are goose's modes with its own descriptions, in goose's order.
var gooseModes = []struct {
	id          agent.Mode
	name, about string
}{
	{agent.ModeAuto, "Auto", "Tools run without asking"},
	{agent.ModeApprove, "Approve", "Every tool call asks for permission"},
	{agent.ModeSmartApprove, "Smart approve", "Read-only tools run; others ask for permission"},
	{agent.ModeChat, "Chat", "No tools: the agent only talks"},
}

// Config option ids.
const (
	optionMode  = "mode"
	optionModel = "model"
)

func (s *acpSession) modeState() *sdk.SessionModeState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(s.mode)}
	for _, m := range gooseModes {
		st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m.id), Name: m.name, Description: sdk.Ptr(m.about)})
	}
	return st
}

// configOptions are the mode and the model.
func (s *acpSession) configOptions() []sdk.SessionConfigOption {
	s.mu.Lock()
	mode, model := s.mode, s.model
	s.mu.Unlock()
	modes := sdk.SessionConfigSelectOptionsUngrouped{}
	for _, m := range gooseModes {
		modes = append(modes, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(m.id), Name: m.name, Description: sdk.Ptr(m.about)})
	}
	modeOpt := sdk.NewSessionConfigOptionSelect(sdk.SessionConfigValueId(mode), sdk.SessionConfigSelectOptions{Ungrouped: &modes})
	modeOpt.Select.Id, modeOpt.Select.Name, modeOpt.Select.Category = optionMode, "Mode", sdk.Ptr(sdk.SessionConfigOptionCategoryMode)
	models := sdk.SessionConfigSelectOptionsUngrouped{}
	for _, m := range knownModels(model) {
		models = append(models, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(m), Name: m})
	}
	modelOpt := sdk.NewSessionConfigOptionSelect(sdk.SessionConfigValueId(model), sdk.SessionConfigSelectOptions{Ungrouped: &models})
	modelOpt.Select.Id, modelOpt.Select.Name, modelOpt.Select.Category = optionModel, "Model", sdk.Ptr(sdk.SessionConfigOptionCategoryModel)
	return []sdk.SessionConfigOption{modeOpt, modelOpt}
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
