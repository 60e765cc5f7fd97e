// Command minagent is the baseline for agent start-up: the least a Go agent does before its first
// provider request (read the provider's environment, build a chat-completions request with one tool,
// stream the answer), with the standard library only.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
)

func main() {
	host := strings.TrimSuffix(os.Getenv("OPENAI_HOST"), "/")
	body, _ := json.Marshal(map[string]any{
		"model":  "gpt-4o",
		"stream": true,
		"messages": []map[string]string{
			{"role": "system", "content": "You are a helpful agent."},
			{"role": "user", "content": strings.Join(os.Args[1:], " ")},
		},
		"tools": []map[string]any{{"type": "function", "function": map[string]any{
			"name": "shell", "description": "run a command",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"command": map[string]string{"type": "string"}}},
		}}},
	})
	req, err := http.NewRequest(http.MethodPost, host+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		fail(err)
	}
	req.Header.Set("Authorization", "Bearer "+os.Getenv("OPENAI_API_KEY"))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal([]byte(data), &chunk) == nil && len(chunk.Choices) > 0 {
			fmt.Print(chunk.Choices[0].Delta.Content)
		}
	}
	fmt.Println()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "minagent:", err)
	os.Exit(1)
}
