-- The editors/nvim plugin as the README sets it up (its init snippet is this Neovim's -u file), in
-- headless Neovim 0.7 to 0.12: the workspace root from .goosehints, every file buffer synced (a text
-- file with unsaved changes, a file with no filetype), diagnostics, a quick fix, completion inside
-- {{ }}, :GoosePreview following an edit, the code lens, then every command: :GooseRun (asking for the new parameter), :GooseTranscript,
-- :GooseUndo, :GooseAsk, :GooseSessions (resume), :GooseCancel, :GooseRun NAME, and :checkhealth goose_ls; and nothing
-- deprecated or failing in :messages. Exits non-zero on any failure or timeout.
local root = os.getenv('WORK_DIR')

local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_helpers.lua')
local fail, lines = h.fail, h.text
h.print_version()

-- the user's answers: the parameter, then the prompt of a resumed session
local asked = {}
vim.ui.input = function(opts, on_confirm)
  asked[#asked + 1] = opts.prompt
  on_confirm(opts.prompt:find('topic', 1, true) and 'agents' or 'continue please')
end
local offered
vim.ui.select = function(items, opts, on_choice)
  offered = items
  on_choice(items[1], 1)
end

local goose = require('goose_ls')
if vim.fn.getcwd() == root then fail('the test must start outside the workspace to check its root') end

-- a text file with an unsaved line, a file with no filetype, then the recipe
vim.cmd('edit ' .. root .. '/notes.txt')
local notes = vim.api.nvim_get_current_buf()
vim.api.nvim_buf_set_lines(notes, -1, -1, false, { 'unsaved line' })
vim.cmd('edit ' .. root .. '/TODO')
local todo = vim.api.nvim_get_current_buf()
vim.cmd('edit ' .. root .. '/recipes/write.yaml')
local buf = vim.api.nvim_get_current_buf()
if vim.bo[buf].filetype ~= 'yaml' or not vim.b[buf].goose_recipe then fail('recipe not recognised: ft=' .. vim.bo[buf].filetype) end

local function client() return goose.client(buf) end
if not vim.wait(10000, function() return client() ~= nil and client().initialized end, 20) then fail('goose-ls did not start') end
local c = client()
if c.name ~= 'goose_ls' then fail('client name ' .. c.name) end
if c.config.root_dir ~= root then fail('root ' .. tostring(c.config.root_dir) .. ', want ' .. root) end
for what, b in pairs({ ['notes.txt'] = notes, TODO = todo }) do
  if not vim.wait(5000, function() return vim.lsp.buf_is_attached(b, c.id) end, 20) then
    fail(what .. ' (filetype "' .. vim.bo[b].filetype .. '") is not synced')
  end
end
if #goose.clients() ~= 1 then fail(#goose.clients() .. ' goose-ls clients, want 1') end
if vim.fn.has('nvim-0.11') == 1 and not vim.lsp.is_enabled('goose_ls') then fail('vim.lsp.enable was not used') end

-- diagnostics
local function missing()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('Missing definitions for parameters', 1, true) then return d end
  end
end
if not vim.wait(10000, function() return missing() ~= nil end, 20) then fail('no diagnostic: ' .. vim.inspect(vim.diagnostic.get(buf))) end

-- quick fix
h.apply_fix(c, buf, missing(), 'Add parameter "topic"')
if not vim.wait(10000, function() return missing() == nil end, 20) then fail('diagnostic stayed after the fix') end

-- completion inside {{ }}
local row = 2
local col = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1]:find('{{ topic', 1, true) + 4
local labels = h.completion_labels(c, buf, row, col)
if not labels['topic'] then fail('completion lacks topic: ' .. vim.inspect(labels)) end

-- :GoosePreview renders the recipe beside it with the given value, and again as the recipe changes
vim.cmd('GoosePreview topic=geese')
local pbuf
for _, w in ipairs(vim.api.nvim_list_wins()) do
  local b = vim.api.nvim_win_get_buf(w)
  if vim.api.nvim_buf_get_name(b):find('goose-preview://', 1, true) then pbuf = b end
end
if not pbuf then fail(':GoosePreview opened no preview window') end
if vim.api.nvim_get_current_buf() ~= buf then fail(':GoosePreview moved the cursor out of the recipe') end
if not vim.wait(10000, function() return lines(pbuf):find('about geese', 1, true) ~= nil end, 20) then
  fail('preview lacks the rendered value:\n' .. lines(pbuf))
end
local last = vim.api.nvim_buf_line_count(buf)
vim.api.nvim_buf_set_lines(buf, last, last, false, { '# preview {{ topic | upper }}' })
if not vim.wait(10000, function() return lines(pbuf):find('# preview GEESE', 1, true) ~= nil end, 20) then
  fail('preview did not follow the edit:\n' .. lines(pbuf))
end
vim.api.nvim_buf_set_lines(buf, last, last + 1, false, {})
for _, w in ipairs(vim.api.nvim_list_wins()) do
  if vim.api.nvim_win_get_buf(w) == pbuf then vim.api.nvim_win_close(w, true) end
end

-- code lens: the client said it runs goose.runRecipe
local lenses = h.request(c, buf, 'textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(buf) } })
if not lenses or #lenses ~= 1 or lenses[1].command.command ~= 'goose.runRecipe' then fail('code lens: ' .. vim.inspect(lenses)) end

local st = require('goose_ls.run').state()
local function await_run(what, want)
  if not vim.wait(20000, function() return st.last and st.runs[st.last] and st.runs[st.last].status end, 20) then
    fail(what .. ' did not end; transcript:\n' .. (st.buf and lines(st.buf) or ''))
  end
  if st.runs[st.last].status ~= want then fail(what .. ': ' .. st.runs[st.last].status .. ', want ' .. want) end
end

-- :GooseRun asks for topic; the agent reads notes.txt (the Go side checks it saw the unsaved line) and edits it
vim.cmd('GooseRun')
await_run(':GooseRun', 'completed')
if #asked ~= 1 or not asked[1]:find('topic', 1, true) then fail('asked ' .. vim.inspect(asked)) end
if lines(notes) ~= 'alpha\ngamma\nunsaved line' then fail('notes buffer: ' .. lines(notes)) end

-- :GooseTranscript shows the run
vim.cmd('GooseTranscript')
if vim.api.nvim_get_current_buf() ~= st.buf then fail(':GooseTranscript did not show the transcript') end
local shown = lines(st.buf)
if not shown:find('> read', 1, true) or not shown:find('> edit', 1, true) then fail('transcript: ' .. shown) end
vim.cmd('close')

-- :GooseUndo reverts the turn
vim.cmd('GooseUndo')
if not vim.wait(5000, function() return lines(notes) == 'alpha\nbeta\nunsaved line' end, 20) then fail('undo: ' .. lines(notes)) end

-- :GooseAsk about the selected line of the recipe
vim.api.nvim_set_current_buf(buf)
local first_run = st.last
vim.cmd('1,1GooseAsk What does this line do?')
if not vim.wait(5000, function() return st.last ~= first_run end, 20) then fail(':GooseAsk started no run') end
await_run(':GooseAsk', 'completed')
if not lines(st.buf):find('It names the recipe.', 1, true) then fail('answer not in the transcript: ' .. lines(st.buf)) end

-- :GooseSessions lists the stored sessions and resumes the first (most recent) with the typed prompt
local asked_run = st.last
vim.cmd('GooseSessions')
if not vim.wait(5000, function() return offered ~= nil end, 20) then fail(':GooseSessions offered nothing') end
if #offered < 2 then fail('sessions: ' .. vim.inspect(offered)) end
if not vim.wait(5000, function() return st.last ~= asked_run end, 20) then fail(':GooseSessions resumed nothing') end
await_run(':GooseSessions', 'completed')

-- :GooseCancel stops a run whose model hangs
local resumed = st.last
vim.cmd('GooseAsk hang')
if not vim.wait(5000, function() return st.last ~= resumed end, 20) then fail(':GooseAsk (hang) started no run') end
-- (the last characters of a streamed reply are held back until it ends: they could begin a secret)
if not vim.wait(10000, function() return lines(st.buf):find('Think', 1, true) ~= nil end, 20) then
  fail('the hanging run did not stream: ' .. lines(st.buf))
end
vim.cmd('GooseCancel')
await_run(':GooseCancel', 'cancelled')

-- :GooseRun NAME runs the recipe goose finds by that name (.goose/recipes/hello.yaml), values on the line
local cancelled = st.last
vim.cmd('GooseRun hello who=geese')
if not vim.wait(5000, function() return st.last ~= cancelled end, 20) then fail(':GooseRun hello started no run') end
await_run(':GooseRun hello', 'completed')

-- :checkhealth goose_ls: binary and version, the client and its buffers, settings; no warning or error
vim.cmd('checkhealth goose_ls')
local report = lines(vim.api.nvim_get_current_buf())
for _, want in ipairs({ 'agrees with goose ', 'agent runs', 'root ' .. root, 'notes.txt', 'TODO', 'write.yaml', 'sync_all_buffers: true', 'cmd: goose-ls' }) do
  if not report:find(want, 1, true) then fail('checkhealth lacks "' .. want .. '":\n' .. report) end
end
for _, bad in ipairs({ 'WARNING', 'ERROR', 'Failed' }) do
  if report:find(bad, 1, true) then fail('checkhealth reports ' .. bad .. ':\n' .. report) end
end
io.stdout:write('CHECKHEALTH\n' .. report .. '\n')

local messages = h.check_messages()
io.stdout:write('MESSAGES\n' .. messages .. '\nOK\n')
vim.cmd('qall!')
