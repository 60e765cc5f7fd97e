-- The plugin with sync_all_buffers = false (Neovim 0.7 to 0.12): the recipe gets goose-ls, a text file
-- opened before it does not (on 0.11+ the plugin's filetypes must win over the shipped lsp/goose_ls.lua).
local root = os.getenv('WORK_DIR')
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_helpers.lua')
local fail = h.fail
h.print_version()

local goose = require('goose_ls')
vim.cmd('edit ' .. root .. '/notes.txt')
local notes = vim.api.nvim_get_current_buf()
vim.cmd('edit ' .. root .. '/recipes/write.yaml')
local buf = vim.api.nvim_get_current_buf()
if not vim.wait(10000, function() return goose.client(buf) ~= nil and goose.client(buf).initialized end, 20) then fail('goose-ls did not start') end
if not vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then fail('no diagnostics on the recipe') end
-- notes.txt was opened first: had it been attached, it would be by now
if #goose.clients(notes) > 0 then fail('notes.txt is synced although sync_all_buffers is false') end
if vim.fn.has('nvim-0.11') == 1 then
  local filetypes = vim.lsp.config.goose_ls.filetypes
  if not filetypes or table.concat(filetypes, ',') ~= 'yaml,json' then fail('resolved filetypes ' .. vim.inspect(filetypes)) end
end
io.stdout:write('MESSAGES\n' .. h.check_messages() .. '\nOK\n')
vim.cmd('qall!')
