-- The README's plugin-less setup on Neovim 0.11+ (editors/nvim on the runtimepath, vim.lsp.enable('goose_ls')
-- as this Neovim's -u file): the shipped lsp/goose_ls.lua starts goose-ls with the root from .goosehints,
-- syncs a text buffer as well as the recipe, and diagnostics arrive. Exits non-zero on any failure.
local root = os.getenv('WORK_DIR')
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_helpers.lua')
local fail = h.fail
h.print_version()

vim.cmd('edit ' .. root .. '/notes.txt')
local notes = vim.api.nvim_get_current_buf()
vim.cmd('edit ' .. root .. '/recipes/write.yaml')
local buf = vim.api.nvim_get_current_buf()

local function client() return vim.lsp.get_clients({ bufnr = buf, name = 'goose_ls' })[1] end
if not vim.wait(10000, function() return client() ~= nil and client().initialized end, 20) then fail('goose-ls did not start') end
local c = client()
if c.config.root_dir ~= root then fail('root ' .. tostring(c.config.root_dir) .. ', want ' .. root) end
if not vim.lsp.buf_is_attached(notes, c.id) then fail('notes.txt (filetype ' .. vim.bo[notes].filetype .. ') is not synced') end
if not vim.wait(10000, function()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('Missing definitions for parameters', 1, true) then return true end
  end
end, 20) then fail('no diagnostic: ' .. vim.inspect(vim.diagnostic.get(buf))) end
local lenses = h.request(c, buf, 'textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(buf) } })
if not lenses or #lenses ~= 1 then fail('code lens: ' .. vim.inspect(lenses)) end

io.stdout:write('MESSAGES\n' .. h.check_messages() .. '\nOK\n')
vim.cmd('qall!')
