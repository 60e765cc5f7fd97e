-- Drives goose-ls from headless Neovim 0.7 to 0.12 (stock vim.lsp): diagnostics, completion inside {{ }},
-- a quick fix applied through Neovim, and a rename. Exits non-zero on any failure or timeout.
local bin = os.getenv('GOOSE_LS_BIN')
local file = os.getenv('RECIPE_FILE')

local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_helpers.lua')
local fail = h.fail
h.print_version()

vim.cmd('edit ' .. file)
local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = 'yaml'
local id = h.start({ name = 'goose-ls', cmd = { bin }, root_dir = vim.fn.fnamemodify(file, ':h') }, buf)
if not id then fail('client did not start') end
local client = vim.lsp.get_client_by_id(id)

local function undefined_count()
  local n = 0
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('Missing definitions for parameters', 1, true) then n = n + 1 end
  end
  return n
end

-- 1. diagnostics: one per use of the undefined variable
if not vim.wait(10000, function() return undefined_count() == 2 end, 20) then
  fail('expected 2 PARAM-UNDEFINED diagnostics, got ' .. vim.inspect(vim.diagnostic.get(buf)))
end

local function request(method, params) return h.request(client, buf, method, params) end
local function lines() return h.text(buf) end
local uri = vim.uri_from_bufnr(buf)

-- 2. quick fix from the first diagnostic, applied through Neovim
local d = vim.diagnostic.get(buf)[1]
h.apply_fix(client, buf, d, 'Add parameter "topic"')
if not lines():find('  - key: topic', 1, true) then fail('quick fix not applied:\n' .. lines()) end
if not vim.wait(10000, function() return undefined_count() == 0 end, 20) then
  fail('diagnostics did not clear after the quick fix: ' .. vim.inspect(vim.diagnostic.get(buf)))
end

-- 3. completion inside {{ }} lists the parameter (cursor after `{{ to` on line 2)
local line2 = vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1]
local col = line2:find('{{ topic', 1, true) + 4
local labels = h.completion_labels(client, buf, 2, col)
if not labels['topic'] or not labels['recipe_dir'] then fail('completion lacks topic/recipe_dir: ' .. vim.inspect(labels) .. '\n' .. lines() .. '\n' .. vim.inspect(vim.diagnostic.get(buf))) end

-- 4. rename the parameter everywhere
local edit = request('textDocument/rename', { textDocument = { uri = uri }, position = { line = 2, character = col }, newName = 'subject' })
vim.lsp.util.apply_workspace_edit(edit, 'utf-16')
local text = lines()
local _, uses = text:gsub('{{ subject }}', '')
if uses ~= 2 or not text:find('- key: subject', 1, true) or text:find('{{ topic', 1, true) or text:find('key: topic', 1, true) then
  fail('rename did not change every use:\n' .. text)
end
if not vim.wait(10000, function() return #vim.diagnostic.get(buf) == 0 end, 20) then
  fail('diagnostics after rename: ' .. vim.inspect(vim.diagnostic.get(buf)))
end

io.stdout:write('OK\n')
vim.cmd('qall!')
