-- :checkhealth goose_ls: the goose-ls binary and its version, the running clients and the buffers they
-- sync, the registry entry Neovim 0.11+ resolved, and the plugin's settings.
local compat = require('goose_ls.compat')

local M = {}

local function binary(h, cmd)
  h.start('goose-ls binary')
  local exe = vim.fn.exepath(cmd[1])
  if exe == '' then
    h.error(cmd[1] .. ' is not executable', {
      'go install github.com/goose-ls/goose-ls/cmd/...@latest (then put $(go env GOPATH)/bin on PATH)',
      'or use the copy inside the VS Code extension: ~/.vscode/extensions/goose-ls.goose-ls-*/bin/<platform>/goose-ls',
      'or pass its path: require("goose_ls").setup({ cmd = { "/path/to/goose-ls" } })',
    })
    return
  end
  local out = vim.fn.system({ exe, 'version' })
  if vim.v.shell_error ~= 0 then
    h.error(exe .. ' version failed: ' .. vim.trim(out))
    return
  end
  h.ok('found ' .. exe .. ' (' .. vim.trim(out) .. ')')
  -- agent runs (GooseRun, GooseAsk) need goose-ls-agent of the same build beside goose-ls
  local beside = vim.fn.fnamemodify(vim.fn.resolve(exe), ':h') .. '/goose-ls-agent'
  local fix = { 'go install github.com/goose-ls/goose-ls/cmd/...@latest' }
  if vim.fn.executable(beside) ~= 1 then
    h.warn('goose-ls-agent is not installed beside ' .. exe .. ': checking works, agent runs do not', fix)
    return
  end
  local agent = vim.trim(vim.fn.system({ beside, 'version' }))
  if agent:gsub('^goose%-ls%-agent ', '') == vim.trim(out):gsub('^goose%-ls ', '') then
    h.ok('found ' .. beside .. ' (agent runs)')
  else
    h.warn(beside .. ' is another version (' .. agent .. '): agent runs refuse it', fix)
  end
end

local function clients(h, plugin)
  h.start('goose-ls clients')
  local list = plugin.clients()
  if #list == 0 then
    h.warn('no goose-ls client is running', { 'open a file: the plugin starts goose-ls for file buffers' })
    return
  end
  for _, c in ipairs(list) do
    local names = {}
    for b in pairs(c.attached_buffers or {}) do
      if vim.api.nvim_buf_is_valid(b) then names[#names + 1] = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':~:.') end
    end
    table.sort(names)
    h.ok(('client %d attached to %d buffer(s), root %s: %s'):format(c.id, #names, tostring(c.config.root_dir),
      table.concat(names, ', ')))
  end
end

local function registry(h, plugin)
  if not compat.has_config then return end
  h.start('vim.lsp.config')
  local config = vim.lsp.config[plugin.name]
  if not config then
    h.warn('no vim.lsp.config entry "' .. plugin.name .. '"')
    return
  end
  local files = vim.api.nvim_get_runtime_file('lsp/' .. plugin.name .. '.lua', true)
  h.info('lsp/' .. plugin.name .. '.lua on the runtimepath: ' .. (#files > 0 and table.concat(files, ', ') or 'none'))
  if plugin.config.sync_all_buffers and config.filetypes then
    h.warn('filetypes are limited to ' .. table.concat(config.filetypes, ', ') .. ': other file buffers are not synced for the agent',
      { 'a file among the ones above sets filetypes; Neovim cannot unset it from vim.lsp.config()' })
  else
    h.ok('filetypes: ' .. (config.filetypes and table.concat(config.filetypes, ', ') or 'every file buffer'))
  end
end

local function settings(h, plugin)
  h.start('settings')
  if not plugin.did_setup then
    h.warn('require("goose_ls").setup() was not called: defaults shown')
  end
  local c = plugin.config
  h.info('cmd: ' .. table.concat(c.cmd, ' '))
  h.info('sync_all_buffers: ' .. tostring(c.sync_all_buffers))
  h.info('filetypes: ' .. table.concat(c.filetypes, ', '))
  h.info('root_markers: ' .. table.concat(c.root_markers, ', '))
  h.info('init_options: ' .. vim.inspect(c.init_options, { newline = ' ', indent = '' }))
end

function M.check()
  local h = compat.health()
  local plugin = require('goose_ls')
  binary(h, plugin.config.cmd)
  clients(h, plugin)
  registry(h, plugin)
  settings(h, plugin)
end

return M
