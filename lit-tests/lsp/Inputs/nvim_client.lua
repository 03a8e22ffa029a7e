-- ===- nvim_client.lua - Neovim's own LSP client against `ompdp lsp` ------===--
--
-- Run by lit-tests/lsp/neovim.c as
--   nvim --headless -u NONE -i NONE -n -c 'luafile nvim_client.lua'
-- with OMPDP (the ompdp binary), SRC (the source file), REPORT (its
-- report, given to the server as a setting) and OUT (the log) in the
-- environment. It opens SRC, starts the server with Neovim's built-in
-- client (vim.lsp.start_client and buf_attach_client: the API of Neovim
-- 0.7, Debian bookworm's; vim.lsp.start came in 0.8), and logs what the
-- client made of the session: the diagnostics it stored, a hover, the code
-- actions offered at the first finding; then it applies the quick fix the
-- way a user does (vim.lsp.buf.code_action, the choice made by a
-- vim.ui.select that picks the quick fix), waits for the server to drop
-- the diagnostics the fix answers, writes the file and quits. The test
-- compares the file with what `ompdp fix --apply` makes of it.
--
-- Any step that does not happen within 20 s is logged as FAIL and Neovim
-- exits with status 1.
-- ===----------------------------------------------------------------------===--
local out = assert(io.open(os.getenv('OUT'), 'w'))

local function log(fmt, ...)
  out:write(string.format(fmt, ...) .. '\n')
  out:flush()
end

local function fail(msg)
  log('FAIL: %s', msg)
  out:close()
  vim.cmd('cquit 1')
end

local function wait_for(what, cond)
  if not vim.wait(20000, cond, 20) then
    fail('timed out waiting for ' .. what)
  end
end

local function first_line(s)
  return (s:gsub('\n.*', ''))
end

local src = os.getenv('SRC')
vim.cmd('edit ' .. vim.fn.fnameescape(src))
local bufnr = vim.api.nvim_get_current_buf()

local published = 0
local messages = {}
local client_id = vim.lsp.start_client({
  name = 'ompdp',
  cmd = { os.getenv('OMPDP'), 'lsp' },
  root_dir = vim.fn.fnamemodify(src, ':p:h'),
  init_options = { ompdp = { reports = { os.getenv('REPORT') } } },
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      published = published + 1
      return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
    end,
    ['window/showMessage'] = function(_, result)
      table.insert(messages, result.message)
    end,
  },
})
if not client_id then
  fail('the client did not start')
end
vim.lsp.buf_attach_client(bufnr, client_id)
local client = vim.lsp.get_client_by_id(client_id)
wait_for('initialize', function()
  return client.initialized
end)
log('client: %s, offset encoding %s', client.name, client.offset_encoding)

wait_for('diagnostics', function()
  return #vim.diagnostic.get(bufnr) > 0
end)

local function show_diagnostics(when)
  local diags = vim.diagnostic.get(bufnr)
  table.sort(diags, function(a, b)
    if a.lnum ~= b.lnum then
      return a.lnum < b.lnum
    end
    if a.col ~= b.col then
      return a.col < b.col
    end
    return a.message < b.message
  end)
  log('%s: %d diagnostic(s)', when, #diags)
  for _, d in ipairs(diags) do
    local code = d.user_data and d.user_data.lsp and d.user_data.lsp.code or '?'
    log('  %d:%d-%d:%d severity=%d %s %s: %s', d.lnum, d.col, d.end_lnum, d.end_col,
      d.severity, d.source or '?', code, first_line(d.message))
  end
  return diags
end

local diags = show_diagnostics('opened')

-- Hover on the first finding's item.
local first = diags[1]
vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover',
  vim.lsp.util.make_position_params(), 20000)
for _, r in pairs(hover or {}) do
  if r.result then
    local lines = vim.lsp.util.convert_input_to_markdown_lines(r.result.contents)
    log('hover: %s', lines[1] or '')
  end
end

-- The code actions at the item, as the user's menu would list them; the
-- quick fix is chosen.
local offered = {}
vim.ui.select = function(items, opts, on_choice)
  local chosen
  for _, item in ipairs(items) do
    local action = item[2]
    log('action: %s %s', action.kind or '?', action.title)
    table.insert(offered, action)
    if not chosen and action.kind == 'quickfix' then
      chosen = item
    end
  end
  on_choice(chosen)
end
local tick = vim.api.nvim_buf_get_changedtick(bufnr)
vim.lsp.buf.code_action()
wait_for('the quick fix to be applied', function()
  return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick
end)
log('applied: the buffer changed')

-- The server hears of the change and drops what the fix answers.
local before = published
wait_for('diagnostics after the fix', function()
  return published > before
end)
show_diagnostics('after the fix')

for _, m in ipairs(messages) do
  log('message: %s', m)
end
vim.cmd('write')
log('written')

vim.lsp.stop_client(client_id)
wait_for('the server to exit', function()
  return vim.lsp.get_client_by_id(client_id) == nil
end)
log('stopped')
out:close()
vim.cmd('qall!')
