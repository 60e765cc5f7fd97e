-- The editors/nvim plugin from a clean config in headless Neovim: setup, diagnostics on a recipe, a
-- quick fix, completion inside {{ }}, then :GooseRun asking for the new parameter through vim.ui.input
-- and the agent editing another open buffer. Exits non-zero on any failure or timeout.
local bin, plugin, root = os.getenv('GOOSE_LS_BIN'), os.getenv('PLUGIN_DIR'), os.getenv('WORK_DIR')

local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_helpers.lua')
local fail = h.fail

vim.opt.runtimepath:prepend(plugin)
require('goose_ls').setup({ cmd = { bin }, init_options = { noSessions = true } })

local asked = {}
vim.ui.input = function(opts, on_confirm)
  asked[#asked + 1] = opts.prompt
  on_confirm('agents')
end

vim.cmd('edit ' .. root .. '/notes.txt')
local notes = vim.api.nvim_get_current_buf()
vim.cmd('edit ' .. root .. '/recipes/write.yaml')
local buf = vim.api.nvim_get_current_buf()
if vim.bo[buf].filetype ~= 'yaml' or not vim.b[buf].goose_recipe then fail('recipe not recognised: ft=' .. vim.bo[buf].filetype) end

local lines = h.text
local function client() return require('goose_ls').client(buf) end
if not vim.wait(10000, function() return client() ~= nil and client().initialized end, 20) then fail('goose-ls did not start') end
if not vim.lsp.buf_is_attached(notes, client().id) then fail('notes.txt is not synced (sync_all_buffers)') end

-- diagnostics
local function missing()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('Missing definitions for parameters', 1, true) then return d end
  end
end
if not vim.wait(10000, function() return missing() ~= nil end, 20) then fail('no diagnostic: ' .. vim.inspect(vim.diagnostic.get(buf))) end

local function request(method, params) return h.request(client(), buf, method, params) end
local uri = vim.uri_from_bufnr(buf)

-- quick fix
h.apply_fix(client(), buf, missing(), 'Add parameter "topic"')
if not vim.wait(10000, function() return missing() == nil end, 20) then fail('diagnostic stayed after the fix') end

-- completion inside {{ }}
local row = 2
local col = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1]:find('{{ topic', 1, true) + 4
local labels = h.completion_labels(client(), buf, row, col)
if not labels['topic'] then fail('completion lacks topic: ' .. vim.inspect(labels)) end

-- code lens: the client said it runs goose.runRecipe
local lenses = request('textDocument/codeLens', { textDocument = { uri = uri } })
if not lenses or #lenses ~= 1 or lenses[1].command.command ~= 'goose.runRecipe' then fail('code lens: ' .. vim.inspect(lenses)) end

-- :GooseRun asks for topic, the agent edits notes.txt
vim.cmd('GooseRun')
local st = require('goose_ls.run').state()
if not vim.wait(20000, function() return st.last and st.runs[st.last] and st.runs[st.last].status end, 20) then
  fail('the run did not end; transcript:\n' .. (st.buf and lines(st.buf) or ''))
end
if st.runs[st.last].status ~= 'completed' then fail('run ' .. st.runs[st.last].status) end
if #asked ~= 1 or not asked[1]:find('topic', 1, true) then fail('asked ' .. vim.inspect(asked)) end
if lines(notes) ~= 'alpha\ngamma' then fail('notes buffer: ' .. lines(notes)) end
if not lines(st.buf):find('> edit', 1, true) then fail('transcript: ' .. lines(st.buf)) end

-- :GooseUndo reverts the turn
vim.cmd('GooseUndo')
if not vim.wait(5000, function() return lines(notes) == 'alpha\nbeta' end, 20) then fail('undo: ' .. lines(notes)) end

io.stdout:write('OK\n')
vim.cmd('qall!')
