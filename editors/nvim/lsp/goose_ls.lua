-- goose-ls as an nvim-lspconfig-style server definition (Neovim 0.11+: put this folder on 'runtimepath'
-- and call vim.lsp.enable('goose_ls'); with nvim-lspconfig, pass these fields to its setup).
return {
  cmd = { 'goose-ls' },
  filetypes = { 'yaml', 'json' },
  root_markers = { '.git', 'recipes', '.goosehints' },
  init_options = { runRecipeCommand = 'goose.runRecipe' },
}
