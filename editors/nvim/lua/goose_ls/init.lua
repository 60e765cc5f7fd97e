-- goose-ls for Neovim 0.7 to 0.12 on stock vim.lsp: registers the server (0.11+ vim.lsp.config/enable with
-- the shipped lsp/goose_ls.lua, 0.8+ vim.lsp.start, 0.7 start_client), syncs every file buffer when asked,
-- recognises recipe files, and adds :GooseRun, :GooseAsk, :GooseCancel, :GooseUndo, :GooseSessions and
-- :GooseTranscript (:checkhealth goose_ls reports the binary, the clients and these settings).
local compat = require('goose_ls.compat')
local run = require('goose_ls.run')
local recipes = require('goose_ls.recipes')

local M = {}

local defaults = {
  cmd = { 'goose-ls' },
  -- filetypes goose-ls reports on (it only reports on files that look like recipes)
  filetypes = { 'yaml', 'json' },
  -- the agent reads unsaved buffers only when they are synced: attach to every file buffer
  sync_all_buffers = true,
  -- the workspace folder is the nearest folder above a file holding one of these
  root_markers = { '.git', '.goose', '.goosehints' },
  -- initializationOptions (see docs/protocol.md): inlayHints, noSessions, reviewEdits, desktopHints (default true)
  init_options = {},
  on_attach = nil,
}

M.config = vim.deepcopy(defaults)
M.did_setup = false

-- the client's name on every Neovim version (0.11+ names clients after their vim.lsp.config entry)
M.name = 'goose_ls'

-- init_options are the user's initializationOptions plus the code lens command this plugin runs
local function init_options()
  return vim.tbl_extend('force', { runRecipeCommand = 'goose.runRecipe' }, M.config.init_options)
end

-- wanted says whether a buffer gets the client: a file buffer (no special buftype, no URL-like name)
-- of a recipe filetype, or any file buffer when syncing all
function M.wanted(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then return false end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then return false end
  if vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then return true end
  return M.config.sync_all_buffers
end

function M.root(bufnr) return compat.root(bufnr, M.config.root_markers) end

local function client_config(bufnr)
  return {
    name = M.name,
    cmd = M.config.cmd,
    root_dir = M.root(bufnr),
    init_options = init_options(),
    handlers = run.handlers(),
    on_attach = M.config.on_attach,
  }
end

local client_id -- Neovim 0.7: one client, attached buffer by buffer

-- attach starts or reuses the client for a buffer on 0.7 to 0.10
local function attach(bufnr)
  if not M.wanted(bufnr) then return end
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

-- attach_unfiletyped starts the enabled config (0.11+) for a file buffer that has no filetype:
-- vim.lsp.enable reacts to FileType only, which such a buffer never fires
local function attach_unfiletyped(bufnr)
  if vim.bo[bufnr].filetype ~= '' or not M.wanted(bufnr) then return end
  local config = vim.lsp.config[M.name]
  if not config or vim.fn.executable(config.cmd[1]) == 0 then return end
  config = vim.deepcopy(config)
  config.root_dir = M.root(bufnr)
  vim.lsp.start(config, { bufnr = bufnr })
end

local function setup_registry()
  vim.lsp.config(M.name, {
    cmd = M.config.cmd,
    -- set only when narrowing: a nil cannot remove the shipped file's value, and that file sets none
    filetypes = (not M.config.sync_all_buffers) and M.config.filetypes or nil,
    root_markers = M.config.root_markers,
    root_dir = function(bufnr, on_dir)
      if M.wanted(bufnr) then on_dir(M.root(bufnr)) end
    end,
    init_options = init_options(),
    handlers = run.handlers(),
    on_attach = M.config.on_attach,
  })
  vim.lsp.enable(M.name)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  -- lists are replaced, not merged by index (0.7 to 0.10 merge them)
  for _, key in ipairs({ 'cmd', 'filetypes', 'root_markers' }) do
    if opts and opts[key] then M.config[key] = vim.deepcopy(opts[key]) end
  end
  M.did_setup = true
  recipes.setup()
  run.setup_commands()
  if vim.fn.executable(M.config.cmd[1]) == 0 then
    vim.notify('goose-ls: ' .. M.config.cmd[1] .. ' is not executable (see :checkhealth goose_ls)', vim.log.levels.WARN)
  end
  local group = vim.api.nvim_create_augroup('goose_ls', { clear = true })
  if compat.has_config then
    setup_registry()
    vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
      group = group,
      callback = function(ev) attach_unfiletyped(ev.buf) end,
    })
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) then attach_unfiletyped(b) end
    end
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

local function is_goose(c) return c.name == M.name or c.name == 'goose-ls' end

-- clients returns the running goose-ls clients (attached to bufnr when given)
function M.clients(bufnr)
  local out = {}
  for _, c in ipairs(compat.clients(bufnr)) do
    if is_goose(c) then out[#out + 1] = c end
  end
  return out
end

-- client returns the goose-ls client of a buffer (or any goose-ls client)
function M.client(bufnr)
  return M.clients(bufnr)[1] or M.clients()[1]
end

return M
