-- goose-ls for Neovim on stock vim.lsp: registers the server (0.11+ vim.lsp.config/enable, 0.8+
-- vim.lsp.start, 0.7 start_client), recognises recipe files, and adds :GooseRun, :GooseAsk,
-- :GooseCancel, :GooseUndo and :GooseSessions.
local run = require('goose_ls.run')
local recipes = require('goose_ls.recipes')

local M = {}

local defaults = {
  cmd = { 'goose-ls' },
  -- filetypes goose-ls reports on (it only reports on files that look like recipes)
  filetypes = { 'yaml', 'json' },
  -- the agent reads unsaved buffers only when they are synced: attach to every file buffer
  sync_all_buffers = true,
  root_markers = { '.git', 'recipes', '.goosehints' },
  -- initializationOptions (see docs/protocol.md): inlayHints, noSessions, reviewEdits
  init_options = {},
  on_attach = nil,
}

M.config = vim.deepcopy(defaults)

local function root_for(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  local found = vim.fn.finddir('.git', dir .. ';')
  for _, marker in ipairs(M.config.root_markers) do
    local hit = vim.fn.findfile(marker, dir .. ';')
    if hit == '' then hit = vim.fn.finddir(marker, dir .. ';') end
    if hit ~= '' then found = hit; break end
  end
  if found ~= '' then return vim.fn.fnamemodify(found, ':p:h:h') end
  return vim.fn.getcwd()
end

-- init_options are the user's initializationOptions plus the code lens command this plugin runs
local function init_options()
  return vim.tbl_extend('force', { runRecipeCommand = 'goose.runRecipe' }, M.config.init_options)
end

local function client_config(bufnr)
  return {
    name = 'goose-ls',
    cmd = M.config.cmd,
    root_dir = root_for(bufnr),
    init_options = init_options(),
    handlers = run.handlers(),
    on_attach = M.config.on_attach,
  }
end

-- wanted says whether a buffer gets the client: recipe carriers always, other files when syncing all
local function wanted(bufnr)
  if vim.bo[bufnr].buftype ~= '' or vim.api.nvim_buf_get_name(bufnr) == '' then return false end
  if vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then return true end
  return M.config.sync_all_buffers
end

local client_id -- Neovim 0.7: one client, attached buffer by buffer

local function attach(bufnr)
  if not wanted(bufnr) then return end
  if vim.lsp.start then
    vim.lsp.start(client_config(bufnr), { bufnr = bufnr })
    return
  end
  if not client_id or not vim.lsp.get_client_by_id(client_id) then
    client_id = vim.lsp.start_client(client_config(bufnr))
  end
  if client_id and not vim.lsp.buf_is_attached(bufnr, client_id) then
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  recipes.setup()
  run.setup_commands()
  local group = vim.api.nvim_create_augroup('goose_ls', { clear = true })
  if vim.fn.has('nvim-0.11') == 1 then
    -- the built-in registry (untested in CI, which has Debian's 0.7); no filetypes = every buffer
    vim.lsp.config('goose_ls', {
      cmd = M.config.cmd, root_markers = M.config.root_markers,
      filetypes = (not M.config.sync_all_buffers) and M.config.filetypes or nil,
      init_options = init_options(),
      handlers = run.handlers(), on_attach = M.config.on_attach,
    })
    vim.lsp.enable('goose_ls')
    return
  end
  vim.api.nvim_create_autocmd({ 'FileType', 'BufReadPost', 'BufNewFile' }, {
    group = group,
    callback = function(ev) attach(ev.buf) end,
  })
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then attach(b) end
  end
end

-- client returns the goose-ls client of a buffer (or any goose-ls client)
function M.client(bufnr)
  for _, c in pairs(vim.lsp.get_active_clients()) do
    if (c.name == 'goose-ls' or c.name == 'goose_ls') and (not bufnr or vim.lsp.buf_is_attached(bufnr, c.id)) then return c end
  end
  for _, c in pairs(vim.lsp.get_active_clients()) do
    if c.name == 'goose-ls' or c.name == 'goose_ls' then return c end
  end
end

return M
