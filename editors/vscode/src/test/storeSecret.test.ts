// Set API Key's path through the real goose-ls binary that `make vsix` bundles: the key goes to goose's
// secret storage (here secrets.yaml: GOOSE_DISABLE_KEYRING, or no keyring to reach), merged with the
// keys already there; a missing value is goose-ls's error. The keyring itself is tested in Go
// (cmd/goose-ls-agent/keyring_test.go).
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { bundledName } from "../lib/serverPath";
import { storeSecret } from "../lib/storeSecret";

const binary = path.join(__dirname, "..", "..", bundledName(process.platform, process.arch));

test("Set API Key stores the key where goose keeps it, through goose-ls", { skip: !fs.existsSync(binary) && !process.env.CI && "run make vsix first" }, async () => {
  assert.ok(fs.existsSync(binary), `${binary} is missing: make vsix builds it`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "goose-secret-"));
  const secrets = path.join(root, "config", "secrets.yaml");
  const env = { PATH: process.env.PATH, HOME: root, GOOSE_PATH_ROOT: root, GOOSE_DISABLE_KEYRING: "1" };
  try {
    const said = await storeSecret(binary, "OPENAI_API_KEY", "sk-vscode-set-key-1", env);
    assert.equal(said, `OPENAI_API_KEY stored in ${secrets}`);
    await storeSecret(binary, "ANTHROPIC_API_KEY", "sk-ant-vscode-key-2", env);
    const text = fs.readFileSync(secrets, "utf8");
    assert.match(text, /OPENAI_API_KEY: sk-vscode-set-key-1/);
    assert.match(text, /ANTHROPIC_API_KEY: sk-ant-vscode-key-2/);
    assert.equal(fs.statSync(secrets).mode & 0o777, 0o600);

    // no keyring to reach: secrets.yaml, and goose-ls says why
    const noBus = { PATH: process.env.PATH, HOME: root, GOOSE_PATH_ROOT: root, DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(root, "no-bus")}` };
    const fallback = await storeSecret(binary, "GROQ_API_KEY", "gsk-vscode-key-3", noBus);
    assert.match(fallback, /GROQ_API_KEY stored in .*secrets\.yaml/);
    assert.match(fallback, /system keyring unavailable/);
    assert.doesNotMatch(fallback, /gsk-vscode-key-3/);
    assert.match(fs.readFileSync(secrets, "utf8"), /OPENAI_API_KEY: sk-vscode-set-key-1/);

    await assert.rejects(storeSecret(binary, "OPENAI_API_KEY", "", env), /no value on stdin/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
