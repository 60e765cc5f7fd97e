-- The few Neovim APIs that changed between 0.7 and 0.12, each behind one function that uses the
-- current API where it exists (so no deprecation warning on 0.10+) and the old one elsewhere.
local M = {}

M.has_config = vim.fn.has('nvim-0.11') == 1 -- vim.lsp.config / vim.lsp.enable, client:request()

-- clients lists the running LSP clients, optionally only those attached to bufnr
function M.clients(bufnr)
  if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = bufnr }) end
  local all = {}
  for _, c in pairs(vim.lsp.get_active_clients()) do
    if not bufnr or vim.lsp.buf_is_attached(bufnr, c.id) then all[#all + 1] = c end
  end
  return all
end

-- request sends an LSP request through client (a method call on 0.11+, a field call before)
function M.request(client, method, params, handler, bufnr)
  if M.has_config then return client:request(method, params, handler, bufnr) end
  return client.request(method, params, handler, bufnr)
end

local function is_dir(path) return vim.fn.isdirectory(path) == 1 end
local function exists(path) return vim.fn.getftype(path) ~= '' end

-- root finds the workspace folder of bufnr: the nearest folder above its file holding one of markers
-- (vim.fs.root on 0.10+); else the working folder when the file lies inside it; else the file's folder.
function M.root(bufnr, markers)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then return vim.fn.getcwd() end
  local file = vim.fn.fnamemodify(name, ':p')
  local found
  if vim.fs and vim.fs.root then
    found = vim.fs.root(bufnr, markers)
  else
    local dir = vim.fn.fnamemodify(file, ':h')
    while not found do
      for _, marker in ipairs(markers) do
        if exists(dir .. '/' .. marker) then found = dir; break end
      end
      local parent = vim.fn.fnamemodify(dir, ':h')
      if parent == dir then break end
      dir = parent
    end
  end
  if found then return found end
  local cwd = vim.fn.getcwd()
  if file:sub(1, #cwd + 1) == cwd .. '/' then return cwd end
  local dir = vim.fn.fnamemodify(file, ':h')
  return is_dir(dir) and dir or cwd
end

-- health is the :checkhealth reporter: vim.health's start/ok/warn/error/info (0.9+) or, on 0.7 and
-- 0.8, the report_* functions of the health module
function M.health()
  local ok, h = pcall(require, 'vim.health')
  if not ok or not h.start then h = ok and h or require('health') end
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

return M
