-- goose-ls for Neovim 0.11+'s built-in registry: with editors/nvim on 'runtimepath', vim.lsp.enable('goose_ls')
-- starts it (the plugin's require('goose_ls').setup() does that too). No `filetypes`: every file buffer
-- is synced, because the agent reads unsaved text only from buffers the server sees (goose-ls checks only
-- the files that look like recipes). Neovim merges this file under vim.lsp.config() calls, and a nil
-- there cannot remove a field set here, so narrowing belongs in vim.lsp.config('goose_ls', {filetypes=…}).
return {
  cmd = { 'goose-ls' },
  root_markers = { '.git', '.goose', '.goosehints' },
  init_options = { runRecipeCommand = 'goose.runRecipe' },
}
