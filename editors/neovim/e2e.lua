-- End-to-end test of mcp-lsp through Neovim's own LSP client (Neovim 0.7.2
-- from Debian: vim.lsp.start_client and buf_attach_client). Driven by
-- nvim_test.go, which passes the paths in environment variables and reads
-- the JSON report this script writes.
local bin = os.getenv('MCP_LSP_BIN')
local root = os.getenv('MCP_LSP_ROOT')
local report_path = os.getenv('MCP_LSP_REPORT')
local report = { steps = {} }

local function step(name, value)
  report.steps[name] = value
end

local function finish()
  local f = assert(io.open(report_path, 'w'))
  f:write(vim.fn.json_encode(report))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  local client_id = vim.lsp.start_client({
    name = 'mcp-lsp',
    cmd = { bin, '--log-level', 'debug' },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = 'root' } },
  })
  assert(client_id, 'start_client failed')
  step('started', true)

  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/.mcp.json'))
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'attach failed')

  -- Diagnostics arrive by push; wait for them (bounded).
  local got = vim.wait(15000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  local diags = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(diags, { code = d.code, lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity, message = d.message })
  end
  step('diagnostics_arrived', got)
  step('diagnostics', diags)

  -- Hover on the server name "filesystem" (line 2, inside the key).
  local client = vim.lsp.get_client_by_id(client_id)
  local hover = client.request_sync('textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = 2, character = 6 },
  }, 10000, bufnr)
  step('hover', hover and hover.result and hover.result.contents and hover.result.contents.value or vim.NIL)

  -- Code actions on the first error; apply the first quick fix. (The
  -- line holds notes too, such as the unpinned package: their fixes are
  -- not the point here.)
  local first
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if first == nil and d.severity == vim.diagnostic.severity.ERROR then
      first = d
    end
  end
  local errors = {}
  for _, d in ipairs(vim.lsp.diagnostic.get_line_diagnostics(bufnr, first.lnum)) do
    if d.severity == 1 then
      table.insert(errors, d)
    end
  end
  local actions = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = first.lnum, character = first.col }, ['end'] = { line = first.end_lnum, character = first.end_col } },
    context = { diagnostics = errors },
  }, 10000, bufnr)
  local titles = {}
  local applied = false
  for _, a in ipairs((actions and actions.result) or {}) do
    table.insert(titles, a.title)
    if not applied and a.kind == 'quickfix' then
      local action = a
      if not action.edit then
        local resolved = client.request_sync('codeAction/resolve', action, 10000, bufnr)
        action = resolved and resolved.result or action
      end
      if action.edit then
        vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
        applied = true
        step('applied', a.title)
      end
    end
  end
  step('actions', titles)
  vim.cmd('silent write')

  -- After the fix, the file must have no error diagnostics.
  local clean = vim.wait(15000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.severity == vim.diagnostic.severity.ERROR then return false end
    end
    return true
  end, 50)
  step('clean_after_fix', clean)
  step('final_text', table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n'))

  -- Code lens through Neovim's own code lens client: refresh() requests
  -- textDocument/codeLens and keeps what the server replied, per buffer.
  vim.lsp.codelens.refresh()
  local lensed = vim.wait(15000, function() return #vim.lsp.codelens.get(bufnr) > 0 end, 50)
  local lenses = {}
  for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
    table.insert(lenses, { line = l.range.start.line, title = l.command and l.command.title or vim.NIL, command = l.command and l.command.command or vim.NIL })
  end
  step('codelens_arrived', lensed)
  step('codelens', lenses)

  -- Sync actions on the server (issue 13): "Add to OpenCode", OpenCode
  -- being in use (opencode.json) without it, then "Disable in Claude
  -- Code". Each is resolved lazily and applied by Neovim itself, files
  -- created included; then every buffer is written.
  local function sync_action(prefix)
    local res = client.request_sync('textDocument/codeAction', {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = { start = { line = 2, character = 6 }, ['end'] = { line = 2, character = 6 } },
      context = { diagnostics = {}, only = { 'refactor' } },
    }, 10000, bufnr)
    local titles = {}
    local done
    for _, a in ipairs((res and res.result) or {}) do
      table.insert(titles, a.title)
      if done == nil and a.title:sub(1, #prefix) == prefix then
        local action = a
        if not action.edit then
          local resolved = client.request_sync('codeAction/resolve', action, 10000, bufnr)
          action = resolved and resolved.result or action
        end
        if action.edit then
          vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
          done = a.title
        end
      end
    end
    vim.cmd('silent wall')
    return titles, done
  end
  local titles_add, added = sync_action('Add to OpenCode')
  step('sync_actions', titles_add)
  step('sync_added', added or vim.NIL)
  local titles_disable, disabled = sync_action('Disable in Claude Code')
  step('switch_actions', titles_disable)
  step('switch_applied', disabled or vim.NIL)
end)
if not ok then report.error = tostring(err) end
finish()
