-- Helpers shared by the headless Neovim test scripts: failing with a non-zero exit, buffer text,
-- synchronous requests, quick fixes and completion labels.
local M = {}

-- fail ends Neovim with exit code 2 so a test cannot pass by accident
function M.fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 2')
end

-- text is a buffer's lines joined with newlines
function M.text(buf) return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') end

-- request sends method and waits (5 s at most) for its result
function M.request(client, buf, method, params)
  local result, done = nil, false
  client.request(method, params, function(err, res)
    if err then M.fail(method .. ': ' .. vim.inspect(err)) end
    result, done = res, true
  end, buf)
  if not vim.wait(5000, function() return done end, 10) then M.fail(method .. ' timed out') end
  return result
end

-- apply_fix asks for the code actions at diagnostic d and applies the one titled title
function M.apply_fix(client, buf, d, title)
  local range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }
  local actions = M.request(client, buf, 'textDocument/codeAction', { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = range,
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, d.lnum) } })
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

return M
