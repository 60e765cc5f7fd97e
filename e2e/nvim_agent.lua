-- Drives an agent run from headless Neovim 0.7 to 0.12 (stock vim.lsp): goose.runRecipe edits an open buffer
-- (left unsaved) and creates a file while the user types in that buffer; the user's line survives.
local bin = os.getenv('GOOSE_LS_BIN')
local root = os.getenv('WORK_DIR')
local recipe = os.getenv('RECIPE_FILE')
local marker = os.getenv('TYPED_MARKER')

local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_helpers.lua')
local fail = h.fail
h.print_version()

vim.cmd('edit ' .. root .. '/notes.txt')
local buf = vim.api.nvim_get_current_buf()
local done_status
local id = h.start({
  name = 'goose-ls', cmd = { bin }, root_dir = root,
  handlers = {
    ['goose/runEvent'] = function(_, ev)
      if ev.kind == 'done' and (ev.agent == nil or ev.agent == '') then done_status = ev.status end
    end,
  },
}, buf)
if not id then fail('client did not start') end
local client = vim.lsp.get_client_by_id(id)
if not vim.wait(10000, function() return client.initialized end, 20) then fail('not initialized') end

local text = h.text

local run_id
h.send(client, 'workspace/executeCommand', { command = 'goose.runRecipe', arguments = { { uri = vim.uri_from_fname(recipe) } } },
  function(err, res)
    if err then fail('goose.runRecipe: ' .. vim.inspect(err)) end
    run_id = res.runId
  end, buf)
if not vim.wait(10000, function() return run_id ~= nil end, 10) then fail('no runId') end

-- the agent's first edit lands in the buffer
if not vim.wait(15000, function() return text(buf):find('gamma', 1, true) ~= nil end, 10) then
  fail('the first edit did not arrive: ' .. text(buf))
end
-- the user types during the run, then lets the model go on
vim.api.nvim_buf_set_lines(buf, -1, -1, false, { 'typed by the user' })
vim.wait(400, function() return false end, 50) -- past Neovim's didChange debounce
local f = io.open(marker, 'w'); f:write('typed'); f:close()

if not vim.wait(20000, function() return done_status ~= nil end, 20) then fail('the run did not end') end
if done_status ~= 'completed' then fail('run status ' .. tostring(done_status)) end

local want = 'ALPHA\ngamma\ntyped by the user'
if text(buf) ~= want then fail('buffer is\n' .. text(buf) .. '\nwant\n' .. want) end
if not vim.bo[buf].modified then fail('the buffer was saved behind the user') end
local disk = table.concat(vim.fn.readfile(root .. '/notes.txt'), '\n')
if disk ~= 'alpha\nbeta' then fail('notes.txt on disk changed: ' .. disk) end

local created = root .. '/created.txt'
if vim.fn.filereadable(created) ~= 1 then fail('created.txt does not exist') end
local cbuf = vim.fn.bufnr(created)
-- (an empty buffer is one empty line, so Neovim shows the inserted final newline as an empty last line)
if cbuf < 0 or text(cbuf):gsub('\n$', '') ~= 'created by goose' then
  fail('created.txt buffer: ' .. (cbuf >= 0 and text(cbuf) or 'none'))
end

io.stdout:write('OK\n')
vim.cmd('qall!')
