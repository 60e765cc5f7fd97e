-- Helpers shared by the headless Neovim test scripts (0.7 to 0.12): failing with a non-zero exit, the
-- version line, buffer text, synchronous requests, quick fixes, completion labels and the check that
-- nothing deprecated or failing was reported.
local M = {}

-- fail ends Neovim with exit code 2 so a test cannot pass by accident
function M.fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 2')
end

-- print_version writes "VERSION major.minor.patch" (the Go side checks it is the Neovim it meant)
function M.print_version()
  local v = vim.version()
  io.stdout:write(('VERSION %d.%d.%d\n'):format(v.major, v.minor, v.patch))
end

-- text is a buffer's lines joined with newlines
function M.text(buf) return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') end

local method_calls = vim.fn.has('nvim-0.11') == 1

-- start starts a client for buf with stock vim.lsp (vim.lsp.start on 0.8+, start_client on 0.7) and
-- returns its id
function M.start(config, buf)
  if vim.lsp.start then return vim.lsp.start(config, { bufnr = buf }) end
  local id = vim.lsp.start_client(config)
  if id then vim.lsp.buf_attach_client(buf, id) end
  return id
end

-- send sends a request without waiting (client:request on 0.11+, client.request before)
function M.send(client, method, params, handler, buf)
  if method_calls then return client:request(method, params, handler, buf) end
  return client.request(method, params, handler, buf)
end

-- request sends method and waits (5 s at most) for its result
function M.request(client, buf, method, params)
  local result, done = nil, false
  local handler = function(err, res)
    if err then M.fail(method .. ': ' .. vim.inspect(err)) end
    result, done = res, true
  end
  M.send(client, method, params, handler, buf)
  if not vim.wait(5000, function() return done end, 10) then M.fail(method .. ' timed out') end
  return result
end

-- lsp_diagnostic turns a vim.diagnostic item back into the LSP diagnostic a code action request carries
local function lsp_diagnostic(d)
  local lsp = (d.user_data and d.user_data.lsp) or {}
  return {
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    message = d.message, severity = d.severity, code = d.code or lsp.code, source = d.source, data = lsp.data,
  }
end

-- apply_fix asks for the code actions at diagnostic d and applies the one titled title
function M.apply_fix(client, buf, d, title)
  local diag = lsp_diagnostic(d)
  local actions = M.request(client, buf, 'textDocument/codeAction', { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = diag.range,
    context = { diagnostics = { diag } } })
  local fix
  for _, a in ipairs(actions or {}) do
    if a.title == title then fix = a end
  end
  if not fix then M.fail('no quick fix "' .. title .. '": ' .. vim.inspect(actions)) end
  vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
end

-- completion_labels returns the set of labels completion offers at (line, character)
function M.completion_labels(client, buf, line, character)
  local comp = M.request(client, buf, 'textDocument/completion', { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } })
  local labels = {}
  for _, it in ipairs((comp and comp.items) or comp or {}) do labels[it.label] = true end
  return labels
end

-- check_messages fails when :messages holds a deprecation, a Lua error or an error message
function M.check_messages()
  local messages = vim.fn.execute('messages')
  for _, bad in ipairs({ 'deprecated', 'Deprecated', 'stack traceback', 'E5108', 'E5113', 'Error', 'error' }) do
    if messages:find(bad, 1, true) then M.fail(':messages holds "' .. bad .. '":\n' .. messages) end
  end
  return messages
end

return M
