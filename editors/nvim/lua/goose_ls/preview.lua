-- :GoosePreview [KEY=VALUE ...]: the recipe rendered the way goose loads it (the server's goose.render), in a
-- read-only scratch split beside it that re-renders as you type (debounced); values are the parameters'
-- defaults unless given on the command line.
local M = {}

local compat = require('goose_ls.compat')

local DEBOUNCE_MS = 250

-- lines of the preview: the rendered text, or why the render stopped as comment lines
local function preview_lines(res)
  if res.text and res.text ~= '' then
    return vim.split(res.text, '\n', { plain = true })
  end
  local out = { '# goose could not render this recipe' }
  if res.missing and #res.missing > 0 then
    table.insert(out, '# missing values: ' .. table.concat(res.missing, ', ') .. ' (:GoosePreview KEY=VALUE ...)')
  end
  for _, d in ipairs(res.diagnostics or {}) do
    table.insert(out, string.format('# line %d: %s', d.range.start.line + 1, (d.message:gsub('\n', ' '))))
  end
  return out
end

local function render(src, buf, values)
  local c = require('goose_ls').client(src)
  if not c or not vim.api.nvim_buf_is_valid(buf) then return end
  local arg = { uri = vim.uri_from_bufnr(src), values = next(values) and values or vim.empty_dict() }
  compat.request(c, 'workspace/executeCommand', { command = 'goose.render', arguments = { arg } }, function(err, res)
    if not vim.api.nvim_buf_is_valid(buf) then return end
    local lines = err and { '# goose.render: ' .. (err.message or vim.inspect(err)) } or preview_lines(res)
    vim.bo[buf].modifiable = true
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    vim.bo[buf].modifiable = false
  end, src)
end

-- open shows the preview of buffer src in a vertical split and keeps it current until the preview closes
function M.open(src, values)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, 'goose-preview://' .. vim.api.nvim_buf_get_name(src))
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].filetype = 'yaml'
  vim.bo[buf].modifiable = false
  local win = vim.api.nvim_get_current_win()
  vim.cmd('vsplit')
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_set_current_win(win)
  local timer = (vim.uv or vim.loop).new_timer()
  local closed = false
  -- on_lines sees every change (typing, :substitute, API edits), unlike TextChanged; returning true detaches
  vim.api.nvim_buf_attach(src, false, {
    on_lines = function()
      if closed then return true end
      timer:stop()
      timer:start(DEBOUNCE_MS, 0, vim.schedule_wrap(function() render(src, buf, values) end))
    end,
  })
  vim.api.nvim_create_autocmd('BufWipeout', {
    buffer = buf,
    once = true,
    callback = function()
      closed = true
      timer:stop()
      timer:close()
    end,
  })
  render(src, buf, values)
  return buf
end

return M
