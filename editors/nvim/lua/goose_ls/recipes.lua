-- Recipe files: *.recipe.yaml/json and YAML/JSON under a recipes/ folder are YAML/JSON buffers marked
-- b:goose_recipe (the server decides by name and content too, so other YAML stays yaml-language-server's).
local M = {}

local function mark(ev)
  local name = vim.api.nvim_buf_get_name(ev.buf)
  if name:match('%.json$') then vim.bo[ev.buf].filetype = 'json' else vim.bo[ev.buf].filetype = 'yaml' end
  vim.b[ev.buf].goose_recipe = true
end

function M.setup()
  local group = vim.api.nvim_create_augroup('goose_ls_recipes', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group,
    pattern = { '*.recipe.yaml', '*.recipe.yml', '*.recipe.json', '*/recipes/*.yaml', '*/recipes/*.yml', '*/recipes/*.json' },
    callback = mark,
  })
  -- without filetype detection (nvim -u NONE), give .yaml/.json files their filetype
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group,
    pattern = { '*.yaml', '*.yml', '*.json' },
    callback = function(ev)
      if vim.bo[ev.buf].filetype == '' then
        vim.bo[ev.buf].filetype = vim.api.nvim_buf_get_name(ev.buf):match('%.json$') and 'json' or 'yaml'
      end
    end,
  })
end

return M
