-- `rules lsp` for Neovim 0.7 and later: one server per game (the folder of the game.yaml above a file),
-- attached to its .rules and YAML files. Neovim 0.7 has no vim.lsp.start (0.8), so this uses
-- vim.lsp.start_client and vim.lsp.buf_attach_client, which every version since 0.5 has.
--
--   vim.opt.runtimepath:append("/path/to/the/project/editors/nvim")
--   require("rules_lsp").setup()                      -- or setup({ cmd = { "python3", "-m", "interpreter.cli", "lsp" } })
local M = {}

local clients = {} -- game folder -> client id

local function game_root(buf)
  local name = vim.api.nvim_buf_get_name(buf)
  if name == "" then
    return nil
  end
  local found = vim.fn.findfile("game.yaml", vim.fn.fnameescape(vim.fn.fnamemodify(name, ":p:h")) .. ";")
  if found == "" then
    return nil
  end
  return vim.fn.fnamemodify(found, ":p:h")
end

function M.attach(buf, opts)
  local root = game_root(buf)
  if root == nil then
    return nil
  end
  local id = clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client({ name = "rules", cmd = opts.cmd, root_dir = root })
    clients[root] = id
  end
  if id ~= nil then
    vim.lsp.buf_attach_client(buf, id)
  end
  return id
end

function M.setup(opts)
  opts = vim.tbl_extend("force", { cmd = { "rules", "lsp" }, filetypes = { "rules", "yaml" } }, opts or {})
  vim.api.nvim_create_autocmd("FileType", {
    pattern = opts.filetypes,
    callback = function(args)
      M.attach(args.buf, opts)
    end,
  })
end

return M
