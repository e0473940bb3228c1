/*
 * TB Actors console: plain JavaScript, no build step. Pages are chosen by the URL's hash (#/devices, #/devices/ID,
 * #/alarms, #/rule-chains, #/actors); live data comes from one server-sent event stream (/api/console/events) whose
 * events "devices", "alarms" and "actors" carry whole views, sent when they change. Every text from the server is
 * set as text (never as HTML), so device names and values cannot inject markup.
 */
'use strict';

(() => {
    const WINDOWS = [['5m', 5 * 60e3], ['15m', 15 * 60e3], ['1h', 3600e3], ['6h', 6 * 3600e3], ['24h', 24 * 3600e3], ['7d', 7 * 24 * 3600e3]];
    const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];
    const KIND_LETTER = {AppActor: 'A', TenantActor: 'T', DeviceActor: 'D', RuleChainActor: 'C', RuleNodeActor: 'N'};
    const MAX_RECONNECT_DELAY = 5000;
    const MIN_CHART_SPAN = 60e3;

    // ------------------------------------------------------------------ DOM helpers

    function h(tag, props, ...children) {
        const el = document.createElement(tag);
        applyProps(el, props);
        append(el, children);
        return el;
    }

    function svg(tag, props, ...children) {
        const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
        applyProps(el, props);
        append(el, children);
        return el;
    }

    function applyProps(el, props) {
        for (const [key, value] of Object.entries(props || {})) {
            if (value === null || value === undefined || value === false) {
                continue;
            }
            if (key.startsWith('on')) {
                el.addEventListener(key.slice(2), value);
            } else if (key === 'dataset') {
                Object.assign(el.dataset, value);
            } else if (key === 'value' || key === 'checked' || key === 'disabled') {
                el[key] = value;
            } else {
                el.setAttribute(key === 'cls' ? 'class' : key, value === true ? '' : String(value));
            }
        }
    }

    function append(el, children) {
        for (const child of children.flat(Infinity)) {
            if (child === null || child === undefined || child === false) {
                continue;
            }
            el.append(child instanceof Node ? child : document.createTextNode(String(child)));
        }
    }

    function replace(el, ...children) {
        el.replaceChildren();
        append(el, children);
        return el;
    }

    // ------------------------------------------------------------------ formatting

    function formatValue(value) {
        if (typeof value === 'number') {
            return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(3)));
        }
        if (value !== null && typeof value === 'object') {
            const text = JSON.stringify(value);
            return text.length > 60 ? text.slice(0, 57) + '...' : text;
        }
        return String(value);
    }

    function formatTime(ts) {
        return ts === null || ts === undefined ? '' : new Date(ts).toLocaleString();
    }

    function ago(ts) {
        const seconds = Math.round((Date.now() - ts) / 1000);
        if (seconds < 2) {
            return 'just now';
        }
        if (seconds < 60) {
            return seconds + ' s ago';
        }
        if (seconds < 3600) {
            return Math.floor(seconds / 60) + ' min ago';
        }
        if (seconds < 86400) {
            return Math.floor(seconds / 3600) + ' h ago';
        }
        return formatTime(ts);
    }

    function agoEl(ts) {
        if (ts === null || ts === undefined) {
            return h('span', {cls: 'muted'}, 'never');
        }
        return h('span', {dataset: {ago: String(ts)}, title: formatTime(ts)}, ago(ts));
    }

    setInterval(() => {
        for (const el of document.querySelectorAll('[data-ago]')) {
            el.textContent = ago(Number(el.dataset.ago));
        }
    }, 1000);

    function toast(message, bad) {
        const el = h('div', {cls: 'notice' + (bad ? ' bad' : ''), role: 'status'}, message);
        el.style.cssText = 'position:fixed;right:16px;bottom:16px;z-index:20;max-width:420px;box-shadow:0 6px 20px rgba(0,0,0,.15)';
        document.body.append(el);
        setTimeout(() => el.remove(), 5000);
        if (bad) {
            // the toast goes after five seconds; the browser's console keeps the error
            console.error('TB Actors console: ' + message);
        }
    }

    // ------------------------------------------------------------------ HTTP

    /** Absolute URLs from the origin: a page opened as http://user:pass@host/ must not pass its credentials on. */
    function url(path) {
        return new URL(path, location.origin).href;
    }

    class ApiError extends Error {
        constructor(status, problem) {
            super((problem && problem.detail) || ('HTTP ' + status));
            this.status = status;
            this.problem = problem || {};
        }
    }

    async function request(method, path, body) {
        const init = {method, headers: {Accept: 'application/json'}};
        if (body !== undefined) {
            init.headers['Content-Type'] = 'application/json';
            init.body = typeof body === 'string' ? body : JSON.stringify(body);
        }
        const response = await fetch(url(path), init);
        const text = await response.text();
        let json = null;
        try {
            json = text ? JSON.parse(text) : null;
        } catch (e) {
            json = null;
        }
        if (!response.ok) {
            throw new ApiError(response.status, json);
        }
        return json;
    }

    // ------------------------------------------------------------------ live data

    const live = {data: {}, source: null, retry: null, delay: 1000, everConnected: false, lostSinceOpen: false};

    function setStatus(state) {
        const el = document.getElementById('live-status');
        el.className = 'status status-' + state;
        el.textContent = state;
        el.dataset.state = state;
    }

    function connect() {
        const source = new EventSource(url('/api/console/events'));
        live.source = source;
        source.onopen = () => {
            live.delay = 1000;
            setStatus('live');
            if (live.lostSinceOpen && current && current.onReconnect) {
                current.onReconnect();
            }
            live.lostSinceOpen = false;
        };
        for (const topic of ['devices', 'alarms', 'actors']) {
            source.addEventListener(topic, event => publish(topic, JSON.parse(event.data)));
        }
        source.onerror = () => {
            // the browser's own retry gives up on some answers (a 503 while the app starts): reconnect ourselves
            source.close();
            live.lostSinceOpen = true;
            setStatus('reconnecting');
            live.retry = setTimeout(connect, live.delay);
            live.delay = Math.min(live.delay * 2, MAX_RECONNECT_DELAY);
        };
    }

    /**
     * A page left for another may be kept, frozen, by the browser (its back/forward cache) with its requests open;
     * a stream left open there holds one of the few connections the browser allows to this server, and a handful
     * of such pages leave none for the next one. So the stream closes when the page is hidden this way and opens
     * again when the page is shown again.
     */
    function pause() {
        clearTimeout(live.retry);
        if (live.source) {
            live.source.close();
            live.source = null;
        }
        live.lostSinceOpen = true;
        setStatus('paused');
    }

    function publish(topic, data) {
        live.data[topic] = data;
        if (topic === 'alarms') {
            const badge = document.getElementById('nav-alarm-count');
            badge.textContent = String(data.active);
            badge.hidden = data.active === 0;
        }
        const handler = current && current['on' + topic[0].toUpperCase() + topic.slice(1)];
        if (handler) {
            handler(data);
        }
    }

    // ------------------------------------------------------------------ router

    let current = null;

    const routes = [
        [/^#\/devices\/([0-9a-f-]{36})$/, devicePage],
        [/^#\/devices$/, devicesPage],
        [/^#\/alarms$/, alarmsPage],
        [/^#\/rule-chains(?:\/([0-9a-f-]{36}))?$/, ruleChainsPage],
        [/^#\/actors$/, actorsPage]
    ];

    function route() {
        if (current && current.dispose) {
            current.dispose();
        }
        const hash = location.hash || '#/devices';
        let match = null;
        let page = devicesPage;
        for (const [pattern, candidate] of routes) {
            match = pattern.exec(hash);
            if (match) {
                page = candidate;
                break;
            }
        }
        const root = document.getElementById('page');
        root.replaceChildren();
        for (const link of document.querySelectorAll('[data-nav]')) {
            link.classList.toggle('active', hash.startsWith('#/' + link.dataset.nav));
        }
        current = page(root, match ? match.slice(1) : []) || {};
        for (const topic of ['devices', 'alarms', 'actors']) {
            if (live.data[topic]) {
                publish(topic, live.data[topic]);
            }
        }
    }

    // ------------------------------------------------------------------ devices

    function devicesPage(root) {
        const previous = new Map();
        const armed = new Map();
        let last = null;
        const count = h('span', {cls: 'sub'});
        const nameInput = h('input', {type: 'text', id: 'new-device-name', placeholder: 'Name, e.g. boiler-1', maxlength: 255, required: true});
        const typeInput = h('input', {type: 'text', id: 'new-device-type', placeholder: 'Type (optional)', maxlength: 255});
        const created = h('div');
        const body = h('tbody', {id: 'devices-body'});
        const form = h('form', {cls: 'inline', id: 'create-device', onsubmit: async event => {
            event.preventDefault();
            try {
                const device = await request('POST', '/api/devices', {name: nameInput.value.trim(), type: typeInput.value.trim() || null});
                nameInput.value = '';
                typeInput.value = '';
                const example = `curl -d '{"temperature": 21.5}' ${location.origin}/api/v1/${device.accessToken}/telemetry`;
                replace(created, h('div', {cls: 'notice', id: 'created-device'},
                    h('div', null, 'Device ', h('b', null, device.name), ' created. Its access token: ',
                        h('code', {id: 'created-token'}, device.accessToken), ' ',
                        h('button', {type: 'button', cls: 'small', onclick: () => navigator.clipboard && navigator.clipboard.writeText(device.accessToken)}, 'Copy')),
                    h('pre', null, example)));
                refresh();
            } catch (e) {
                replace(created, h('div', {cls: 'notice bad', id: 'create-error'}, e.message));
            }
        }}, nameInput, typeInput, h('button', {cls: 'primary', type: 'submit'}, 'Create device'));

        append(root, [
            h('div', {cls: 'page-head'}, h('h1', null, 'Devices'), count),
            h('section', {cls: 'card'}, h('h2', null, 'New device'), form, created),
            h('section', {cls: 'card'},
                h('div', {cls: 'table-wrap'}, h('table', {id: 'devices-table'},
                    h('thead', null, h('tr', null, h('th', null, 'Name'), h('th', {cls: 'hide-phone'}, 'Type'),
                        h('th', null, 'Latest values'), h('th', null, 'Last activity'), h('th'))),
                    body)))
        ]);
        replace(body, h('tr', null, h('td', {colspan: 5, cls: 'empty'}, 'Loading...')));

        async function refresh() {
            try {
                render(await request('GET', '/api/console/devices'));
            } catch (e) {
                toast(e.message, true);
            }
        }

        function rerender() {
            if (last) {
                render(last);
            }
        }

        function render(data) {
            last = data;
            count.textContent = data.total === data.devices.length ? `${data.total} in all` : `${data.devices.length} of ${data.total} shown`;
            if (data.devices.length === 0) {
                replace(body, h('tr', null, h('td', {colspan: 5, cls: 'empty'}, 'No devices yet: create one above.')));
                return;
            }
            replace(body, data.devices.map(device => {
                const before = previous.get(device.id) || {};
                const chips = Object.entries(device.latest).map(([key, tv]) => {
                    const changed = before[key] !== undefined && before[key] !== tv.ts;
                    return h('span', {cls: 'chip' + (changed ? ' flash' : ''), dataset: {key}, title: formatTime(tv.ts)},
                        h('span', {cls: 'k'}, key), h('span', {cls: 'v'}, formatValue(tv.value)));
                });
                previous.set(device.id, Object.fromEntries(Object.entries(device.latest).map(([k, tv]) => [k, tv.ts])));
                // the list is drawn again on every change: whether Delete waits for its confirmation lives here
                const isArmed = armed.has(device.id);
                const remove = h('button', {cls: 'small danger' + (isArmed ? ' armed' : ''), type: 'button', onclick: async () => {
                    if (!armed.has(device.id)) {
                        armed.set(device.id, setTimeout(() => {
                            armed.delete(device.id);
                            rerender();
                        }, 4000));
                        rerender();
                        return;
                    }
                    clearTimeout(armed.get(device.id));
                    armed.delete(device.id);
                    remove.disabled = true;
                    try {
                        await request('DELETE', '/api/devices/' + device.id);
                        toast(`Device ${device.name} deleted`);
                        refresh();
                    } catch (e) {
                        toast(e.message, true);
                        remove.disabled = false;
                    }
                }}, isArmed ? 'Confirm delete' : 'Delete');
                return h('tr', {dataset: {deviceId: device.id}},
                    h('td', null, h('a', {href: '#/devices/' + device.id, cls: 'device-link'}, device.name)),
                    h('td', {cls: 'hide-phone muted'}, device.type || ''),
                    h('td', null, chips.length ? h('div', {cls: 'chips'}, chips) : h('span', {cls: 'muted'}, 'no telemetry yet')),
                    h('td', {cls: 'last-activity'}, agoEl(device.lastActivityTs)),
                    h('td', {cls: 'actions'}, remove));
            }));
        }

        return {onDevices: render, dispose: () => armed.forEach(timer => clearTimeout(timer))};
    }

    // ------------------------------------------------------------------ one device

    function devicePage(root, [id]) {
        const state = {keys: null, window: WINDOWS[1][1], lastActivity: undefined, loading: false, dirty: false, plot: null, known: [],
            alarmsLoading: false, alarmsDirty: false};
        const title = h('h1', null, '...');
        const info = h('dl', {cls: 'kv'});
        const latest = h('div', {id: 'device-latest'});
        const attributes = h('div', {id: 'device-attributes'});
        const alarms = h('div', {id: 'device-alarms'});
        const shared = h('div', {id: 'device-shared'});
        const rpcLog = h('div', {id: 'rpc-log'});
        const rpcs = [];
        const keyPicker = h('div', {cls: 'chips', id: 'key-picker'});
        const chart = h('div', {cls: 'chart', id: 'device-chart', dataset: {points: '0'}});
        const windowSelect = h('select', {id: 'window-picker', onchange: () => {
            state.window = Number(windowSelect.value);
            loadHistory();
        }}, WINDOWS.map(([label, ms]) => h('option', {value: ms}, 'last ' + label)));
        windowSelect.value = String(state.window);

        append(root, [
            h('div', {cls: 'crumbs'}, h('a', {href: '#/devices'}, 'Devices'), ' / device'),
            h('div', {cls: 'page-head'}, title),
            h('section', {cls: 'card'},
                h('h2', null, 'Telemetry', h('span', {cls: 'sub'}, 'history of the chosen keys')),
                h('div', {cls: 'chart-tools'}, keyPicker, h('span', {cls: 'grow'}), windowSelect),
                chart),
            h('div', {cls: 'grid'},
                h('section', {cls: 'card'}, h('h2', null, 'Latest values'), latest),
                h('section', {cls: 'card'}, h('h2', null, 'Attributes'), attributes),
                h('section', {cls: 'card'}, h('h2', null, 'Device'), info)),
            h('div', {cls: 'grid'},
                h('section', {cls: 'card'}, h('h2', null, 'RPC', h('span', {cls: 'sub'}, 'a command to the device')),
                    rpcForm(), rpcLog),
                h('section', {cls: 'card'}, h('h2', null, 'Shared attributes', h('span', {cls: 'sub'}, 'set here, pushed to the device')),
                    sharedForm(), shared)),
            h('section', {cls: 'card'}, h('h2', null, 'Alarms'), alarms)
        ]);

        const resize = new ResizeObserver(() => {
            if (state.plot) {
                state.plot.setSize({width: chart.clientWidth, height: 300});
            }
        });
        resize.observe(chart);

        async function loadDevice() {
            try {
                const device = await request('GET', '/api/devices/' + id);
                title.textContent = device.name;
                replace(info,
                    h('dt', null, 'Type'), h('dd', null, device.type || '-'),
                    h('dt', null, 'Id'), h('dd', null, h('code', null, device.id)),
                    h('dt', null, 'Access token'), h('dd', null, h('code', {id: 'device-token'}, device.accessToken)),
                    h('dt', null, 'Created'), h('dd', null, formatTime(device.createdTime)));
            } catch (e) {
                title.textContent = e.status === 404 ? 'No such device' : 'Device';
                replace(info, h('div', {cls: 'error-text'}, e.message));
            }
        }

        // ---- RPC: one-way, two-way or persistent; each request's state is shown as it changes
        function rpcForm() {
            const method = h('input', {type: 'text', id: 'rpc-method', placeholder: 'Method, e.g. setMode', maxlength: 255, required: true});
            const params = h('input', {type: 'text', id: 'rpc-params', placeholder: 'Params (JSON), e.g. {"mode": "eco"}'});
            const timeout = h('input', {type: 'number', id: 'rpc-timeout', min: 1, value: 10000, title: 'Timeout, ms'});
            const kind = h('select', {id: 'rpc-kind'}, h('option', {value: 'twoway'}, 'two-way'), h('option', {value: 'oneway'}, 'one-way'));
            const persistent = h('input', {type: 'checkbox', id: 'rpc-persistent'});
            return h('form', {cls: 'inline', id: 'rpc-form', onsubmit: event => {
                event.preventDefault();
                let parsed = {};
                if (params.value.trim()) {
                    try {
                        parsed = JSON.parse(params.value);
                    } catch (e) {
                        toast('Params must be JSON: ' + e.message, true);
                        return;
                    }
                }
                sendRpc({method: method.value.trim(), params: parsed, timeout: Number(timeout.value), persistent: persistent.checked},
                    kind.value);
            }}, method, params, timeout, kind, h('label', null, persistent, ' persistent'),
            h('button', {cls: 'primary', type: 'submit'}, 'Send'));
        }

        async function sendRpc(body, kind) {
            const entry = {method: body.method, kind, persistent: body.persistent, status: 'SENDING', detail: '', ts: Date.now()};
            rpcs.unshift(entry);
            renderRpcs();
            try {
                const answer = await request('POST', `/api/rpc/${kind}/${id}`, body);
                if (body.persistent) {
                    entry.rpcId = answer.rpcId;
                    entry.status = 'QUEUED';
                    watchPersistent();
                } else {
                    entry.status = kind === 'oneway' ? 'DELIVERED' : 'SUCCESSFUL';
                    entry.detail = answer === null ? '' : JSON.stringify(answer);
                }
            } catch (e) {
                entry.status = e.status === 504 ? 'TIMEOUT' : 'FAILED';
                entry.detail = `${e.status}: ${e.message}`;
            }
            renderRpcs();
        }

        // persistent requests: their stored state, looked up while one of them has not ended
        let watching = null;
        function watchPersistent() {
            if (watching) {
                return;
            }
            watching = setInterval(async () => {
                // a two-way request the device acknowledged (DELIVERED) still waits for its answer
                const open = rpcs.filter(r => r.rpcId && (r.status === 'QUEUED' || r.status === 'SENT'
                    || (r.status === 'DELIVERED' && r.kind === 'twoway')));
                if (open.length === 0) {
                    clearInterval(watching);
                    watching = null;
                    return;
                }
                for (const entry of open) {
                    try {
                        const stored = await request('GET', '/api/rpc/persistent/' + entry.rpcId);
                        entry.status = stored.status;
                        entry.detail = stored.response !== null ? JSON.stringify(stored.response) : (stored.reason || '');
                    } catch (e) {
                        entry.detail = e.message;
                    }
                }
                renderRpcs();
            }, 1000);
        }

        function renderRpcs() {
            if (rpcs.length === 0) {
                replace(rpcLog, h('div', {cls: 'empty'}, 'No requests sent from this page yet.'));
                return;
            }
            replace(rpcLog, h('div', {cls: 'table-wrap'}, h('table', {id: 'rpc-table'},
                h('thead', null, h('tr', null, h('th', null, 'Method'), h('th', null, 'Kind'), h('th', null, 'State'), h('th', null, 'Answer'))),
                h('tbody', null, rpcs.slice(0, 20).map(entry => h('tr', {dataset: {status: entry.status}},
                    h('td', null, entry.method), h('td', null, entry.kind + (entry.persistent ? ', persistent' : '')),
                    h('td', {cls: 'rpc-status'}, entry.status), h('td', {cls: 'value'}, entry.detail)))))));
        }

        // ---- shared attributes: ThingsBoard's SHARED_SCOPE, pushed to the device's subscribed sessions when set
        function sharedForm() {
            const key = h('input', {type: 'text', id: 'shared-key', placeholder: 'Key, e.g. targetTemperature', maxlength: 255, required: true});
            const value = h('input', {type: 'text', id: 'shared-value', placeholder: 'Value (JSON), e.g. 22.5', required: true});
            return h('form', {cls: 'inline', id: 'shared-form', onsubmit: async event => {
                event.preventDefault();
                let parsed;
                try {
                    parsed = JSON.parse(value.value);
                } catch (e) {
                    parsed = value.value;
                }
                try {
                    await request('POST', `/api/plugins/telemetry/DEVICE/${id}/attributes/SHARED_SCOPE`, {[key.value.trim()]: parsed});
                    toast(`Shared attribute ${key.value.trim()} set`);
                    loadShared();
                } catch (e) {
                    toast(e.message, true);
                }
            }}, key, value, h('button', {cls: 'primary', type: 'submit'}, 'Set'));
        }

        async function loadShared() {
            try {
                const values = await request('GET', `/api/plugins/telemetry/DEVICE/${id}/values/attributes/SHARED_SCOPE`);
                renderValues(shared, Object.fromEntries(values.map(a => [a.key, {value: a.value, ts: a.lastUpdateTs}])),
                    'No shared attributes yet.');
            } catch (e) {
                replace(shared, h('div', {cls: 'error-text'}, e.message));
            }
        }

        async function loadAttributes() {
            try {
                const values = await request('GET', `/api/devices/${id}/attributes`);
                renderValues(attributes, values, 'No attributes yet.');
            } catch (e) {
                replace(attributes, h('div', {cls: 'error-text'}, e.message));
            }
        }

        function renderValues(el, values, emptyText) {
            const entries = Object.entries(values);
            if (entries.length === 0) {
                replace(el, h('div', {cls: 'empty'}, emptyText));
                return;
            }
            replace(el, h('div', {cls: 'table-wrap'}, h('table', null,
                h('thead', null, h('tr', null, h('th', null, 'Key'), h('th', null, 'Value'), h('th', null, 'Time'))),
                h('tbody', null, entries.map(([key, tv]) => h('tr', {dataset: {key}},
                    h('td', null, key), h('td', {cls: 'value'}, formatValue(tv.value)), h('td', null, agoEl(tv.ts))))))));
        }

        function renderKeyPicker() {
            replace(keyPicker, state.known.map((key, index) => h('label', {cls: 'key-pick'},
                h('input', {type: 'checkbox', value: key, checked: state.keys.includes(key), onchange: event => {
                    state.keys = event.target.checked ? [...state.keys, key] : state.keys.filter(k => k !== key);
                    loadHistory();
                }}),
                h('span', {cls: 'swatch', style: 'background:' + COLORS[index % COLORS.length]}), key)));
        }

        async function loadHistory() {
            if (state.loading) {
                state.dirty = true;
                return;
            }
            state.loading = true;
            try {
                const end = Date.now() + 1000;
                const start = end - state.window;
                const keys = state.keys.filter(key => state.known.includes(key));
                const history = keys.length === 0 ? {}
                    : await request('GET', `/api/devices/${id}/telemetry?keys=${keys.map(encodeURIComponent).join(',')}&startTs=${start}&endTs=${end}&limit=10000`);
                drawChart(keys, history, start, end);
            } catch (e) {
                toast(e.message, true);
            } finally {
                state.loading = false;
                if (state.dirty) {
                    state.dirty = false;
                    loadHistory();
                }
            }
        }

        function drawChart(keys, history, start, end) {
            const times = new Set();
            for (const key of keys) {
                for (const point of history[key] || []) {
                    times.add(point.ts);
                }
            }
            const xs = [...times].sort((a, b) => a - b);
            const index = new Map(xs.map((ts, i) => [ts, i]));
            let points = 0;
            const series = keys.map(key => {
                const ys = new Array(xs.length).fill(null);
                for (const point of history[key] || []) {
                    const value = typeof point.value === 'boolean' ? Number(point.value) : point.value;
                    if (typeof value === 'number') {
                        ys[index.get(point.ts)] = value;
                        points++;
                    }
                }
                return ys;
            });
            chart.dataset.points = String(points);
            chart.dataset.lastTs = xs.length ? String(xs[xs.length - 1]) : '';
            if (state.plot) {
                state.plot.destroy();
                state.plot = null;
            }
            chart.replaceChildren();
            if (points === 0) {
                chart.append(h('div', {cls: 'empty'}, keys.length ? 'No numeric values in this window.' : 'No numeric keys yet: post telemetry to see a chart.'));
                return;
            }
            const colorOf = key => COLORS[state.known.indexOf(key) % COLORS.length];
            // the x axis spans the data the window holds, not the whole window: a minute of readings in a 15-minute
            // window fills the chart (at least a minute wide, never past the window)
            const rangeEnd = Math.min(end, Math.max(xs[xs.length - 1], xs[0] + MIN_CHART_SPAN));
            const rangeStart = Math.max(start, Math.min(xs[0], rangeEnd - MIN_CHART_SPAN));
            chart.dataset.rangeStart = String(rangeStart);
            chart.dataset.rangeEnd = String(rangeEnd);
            state.plot = new uPlot({
                width: chart.clientWidth || 600,
                height: 300,
                scales: {x: {time: true, range: () => [rangeStart / 1000, rangeEnd / 1000]}},
                series: [{}, ...keys.map(key => ({label: key, stroke: colorOf(key), width: 2, spanGaps: true,
                    points: {show: xs.length < 80, size: 5, fill: colorOf(key)}}))],
                axes: [{stroke: '#667085', grid: {stroke: '#eef1f5'}}, {stroke: '#667085', grid: {stroke: '#eef1f5'}}]
            }, [xs.map(ts => ts / 1000), ...series], chart);
        }

        function onDevices(data) {
            const device = data.devices.find(d => d.id === id);
            if (!device) {
                return;
            }
            title.textContent = device.name;
            renderValues(latest, device.latest, 'No telemetry yet.');
            const numeric = Object.entries(device.latest)
                .filter(([, tv]) => typeof tv.value === 'number' || typeof tv.value === 'boolean').map(([key]) => key);
            const added = numeric.filter(key => !state.known.includes(key));
            if (state.keys === null || added.length) {
                state.known = [...state.known, ...added];
                state.keys = state.keys === null ? numeric.slice(0, 4) : [...state.keys, ...added];
                renderKeyPicker();
            }
            if (device.lastActivityTs !== state.lastActivity) {
                const first = state.lastActivity === undefined;
                state.lastActivity = device.lastActivityTs;
                loadHistory();
                if (!first) {
                    loadAttributes();
                }
            }
        }

        // this device's alarms come from the alarm API, not from the stream's view, which holds only the newest alarms
        // of all devices; the stream's event says when to look again
        async function loadAlarms() {
            if (state.alarmsLoading) {
                state.alarmsDirty = true;
                return;
            }
            state.alarmsLoading = true;
            try {
                const mine = await request('GET', '/api/alarms?deviceId=' + encodeURIComponent(id));
                replace(alarms, alarmTable(mine, false, 'No alarms for this device.'));
            } catch (e) {
                replace(alarms, h('div', {cls: 'error-text'}, e.message));
            } finally {
                state.alarmsLoading = false;
                if (state.alarmsDirty) {
                    state.alarmsDirty = false;
                    loadAlarms();
                }
            }
        }

        function onAlarms() {
            loadAlarms();
        }

        loadDevice();
        loadAttributes();
        loadShared();
        renderRpcs();
        loadAlarms();
        return {
            onDevices, onAlarms,
            onReconnect: () => {
                loadDevice();
                loadAttributes();
                loadHistory();
                loadAlarms();
            },
            dispose: () => {
                resize.disconnect();
                if (watching) {
                    clearInterval(watching);
                }
                if (state.plot) {
                    state.plot.destroy();
                }
            }
        };
    }

    // ------------------------------------------------------------------ alarms

    function alarmTable(alarms, withDevice, emptyText) {
        if (alarms.length === 0) {
            return h('div', {cls: 'empty'}, emptyText);
        }
        return h('div', {cls: 'table-wrap'}, h('table', {cls: 'alarms'},
            h('thead', null, h('tr', null, h('th', null, 'Severity'), h('th', null, 'Type'), withDevice ? h('th', null, 'Device') : null,
                h('th', null, 'Status'), h('th', null, 'Started'), h('th', {cls: 'hide-phone'}, 'Last seen'), h('th', null, 'Cleared'))),
            h('tbody', null, alarms.map(alarm => h('tr', {dataset: {alarmId: alarm.id, status: alarm.status}},
                h('td', null, h('span', {cls: 'badge sev-' + alarm.severity}, alarm.severity)),
                h('td', null, alarm.type),
                withDevice ? h('td', null, alarm.deviceName
                    ? h('a', {href: '#/devices/' + alarm.deviceId}, alarm.deviceName) : h('span', {cls: 'muted'}, 'deleted')) : null,
                h('td', null, h('span', {cls: 'badge st-' + alarm.status}, alarm.status)),
                h('td', {title: formatTime(alarm.startTs)}, agoEl(alarm.startTs)),
                h('td', {cls: 'hide-phone'}, agoEl(alarm.endTs)),
                h('td', null, alarm.clearTs ? agoEl(alarm.clearTs) : h('span', {cls: 'muted'}, '-')))))));
    }

    function alarmsPage(root) {
        let filter = 'ACTIVE';
        let last = null;
        const tabs = h('div', {cls: 'tabs', role: 'tablist'});
        const list = h('div', {id: 'alarms-list'});
        const sub = h('span', {cls: 'sub'});
        append(root, [h('div', {cls: 'page-head'}, h('h1', null, 'Alarms'), sub),
            h('section', {cls: 'card'}, h('div', {cls: 'chart-tools'}, tabs), list)]);

        function render() {
            if (!last) {
                replace(list, h('div', {cls: 'empty'}, 'Loading...'));
                return;
            }
            const counts = {ACTIVE: 0, CLEARED: 0};
            last.alarms.forEach(alarm => counts[alarm.status]++);
            sub.textContent = `${last.active} active`;
            replace(tabs, [['ACTIVE', 'Active'], ['CLEARED', 'Cleared'], ['ALL', 'All']].map(([value, label]) =>
                h('button', {type: 'button', cls: filter === value ? 'on' : '', dataset: {filter: value}, onclick: () => {
                    filter = value;
                    render();
                }}, `${label} (${value === 'ALL' ? last.alarms.length : counts[value]})`)));
            const shown = last.alarms.filter(alarm => filter === 'ALL' || alarm.status === filter);
            replace(list, alarmTable(shown, true, filter === 'ACTIVE' ? 'No active alarms.' : 'No alarms.'));
        }

        render();
        return {onAlarms: data => {
            last = data;
            render();
        }};
    }

    // ------------------------------------------------------------------ rule chains

    /** Parses JSON while recording the line of every path (nodes[2].configuration.condition); throws with line and column. */
    function jsonLines(text) {
        const lines = new Map();
        let i = 0;
        let line = 1;
        const fail = message => {
            const error = new Error(message);
            error.line = line;
            error.column = i - text.lastIndexOf('\n', i - 1);
            throw error;
        };
        const ws = () => {
            while (i < text.length) {
                const c = text[i];
                if (c === '\n') {
                    line++;
                } else if (c !== ' ' && c !== '\t' && c !== '\r') {
                    return;
                }
                i++;
            }
        };
        const string = () => {
            i++;
            let out = '';
            for (;;) {
                if (i >= text.length) {
                    fail('unterminated string');
                }
                const c = text[i];
                if (c === '"') {
                    i++;
                    return out;
                }
                if (c === '\n') {
                    fail('line break inside a string');
                }
                if (c === '\\') {
                    out += text[i + 1];
                    i += text[i + 1] === 'u' ? 6 : 2;
                    continue;
                }
                out += c;
                i++;
            }
        };
        const value = path => {
            ws();
            if (!lines.has(path)) {
                lines.set(path, line);
            }
            const c = text[i];
            if (c === '{') {
                i++;
                ws();
                if (text[i] === '}') {
                    i++;
                    return;
                }
                for (;;) {
                    ws();
                    if (text[i] !== '"') {
                        fail('expected a quoted key');
                    }
                    const keyLine = line;
                    const key = string();
                    const child = path ? path + '.' + key : key;
                    lines.set(child, keyLine);
                    ws();
                    if (text[i] !== ':') {
                        fail("expected ':' after the key");
                    }
                    i++;
                    value(child);
                    ws();
                    if (text[i] === ',') {
                        i++;
                    } else if (text[i] === '}') {
                        i++;
                        return;
                    } else {
                        fail("expected ',' or '}'");
                    }
                }
            }
            if (c === '[') {
                i++;
                ws();
                if (text[i] === ']') {
                    i++;
                    return;
                }
                for (let n = 0; ; n++) {
                    value(`${path}[${n}]`);
                    ws();
                    if (text[i] === ',') {
                        i++;
                    } else if (text[i] === ']') {
                        i++;
                        return;
                    } else {
                        fail("expected ',' or ']'");
                    }
                }
            }
            if (c === '"') {
                string();
                return;
            }
            const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
            if (!m) {
                fail(c === undefined ? 'unexpected end of the text' : `unexpected character '${c}'`);
            }
            i += m[0].length;
        };
        value('');
        ws();
        if (i < text.length) {
            fail('unexpected text after the end of the JSON value');
        }
        return lines;
    }

    /** The line of an error such as "nodes[3].configuration.condition: ...": its path, or the nearest enclosing one. */
    function lineOf(error, lines) {
        const colon = error.indexOf(': ');
        let path = colon > 0 ? error.slice(0, colon) : '';
        if (path === '(root)') {
            return 1;
        }
        while (path) {
            if (lines.has(path)) {
                return lines.get(path);
            }
            path = path.replace(/(\.[^.[\]]*|\[\d+\])$/, '');
        }
        return 1;
    }

    /** Layers by longest path from the first node: left to right, or top to bottom when {@code vertical} (phones). */
    function chainLayout(chain, vertical) {
        const nodes = Array.isArray(chain.nodes) ? chain.nodes.filter(n => n && typeof n.id === 'string') : [];
        const connections = Array.isArray(chain.connections) ? chain.connections.filter(c => c && c.from && c.to) : [];
        const first = chain.firstNodeId || (nodes[0] && nodes[0].id);
        const depth = new Map();
        if (first !== undefined) {
            depth.set(first, 0);
        }
        // longest path from the first node; bounded rounds, so a (refused) cycle cannot loop forever
        for (let round = 0; round < nodes.length; round++) {
            let moved = false;
            for (const c of connections) {
                if (depth.has(c.from) && (depth.get(c.to) === undefined || depth.get(c.to) < depth.get(c.from) + 1)
                    && depth.get(c.from) + 1 < nodes.length) {
                    depth.set(c.to, depth.get(c.from) + 1);
                    moved = true;
                }
            }
            if (!moved) {
                break;
            }
        }
        const columns = [];
        for (const node of nodes) {
            const d = depth.has(node.id) ? depth.get(node.id) : 0;
            (columns[d] = columns[d] || []).push(node);
        }
        const place = new Map();
        const W = vertical ? 140 : 150;
        const H = 68;
        const GAP_X = 96;
        const GAP_Y = 34;
        const rows = Math.max(1, ...columns.map(column => (column || []).length));
        const layers = Math.max(1, columns.length);
        if (vertical) {
            const GAP_H = 16;
            const GAP_V = 60;
            columns.forEach((column, d) => (column || []).forEach((node, row) =>
                place.set(node.id, {x: 20 + row * (W + GAP_H), y: 20 + d * (H + GAP_V), node})));
            return {place, connections, first, W, H, vertical,
                width: 40 + rows * (W + GAP_H) - GAP_H, height: 40 + layers * (H + GAP_V) - GAP_V};
        }
        columns.forEach((column, d) => (column || []).forEach((node, row) =>
            place.set(node.id, {x: 20 + d * (W + GAP_X), y: 20 + row * (H + GAP_Y), node})));
        return {place, connections, first, W, H, vertical,
            width: 40 + layers * (W + GAP_X) - GAP_X, height: 40 + rows * (H + GAP_Y) - GAP_Y};
    }

    /** @param figures the running chain's figures by node id ({in, failures, ...} from /actuator/rulechains), or none */
    function drawChain(el, chain, badNodes, figures) {
        const {place, connections, first, W, H, width, height, vertical} = chainLayout(chain, el.clientWidth > 0 && el.clientWidth < 640);
        const edges = new Map();
        for (const c of connections) {
            const key = c.from + '\u0000' + c.to;
            const entry = edges.get(key) || {from: c.from, to: c.to, relations: []};
            entry.relations.push(c.relation);
            edges.set(key, entry);
        }
        const graph = svg('svg', {cls: 'graph', id: 'chain-graph', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
            'aria-label': 'Rule chain graph'},
        svg('defs', null, svg('marker', {id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse'},
            svg('path', {d: 'M0,0 L10,5 L0,10 z', fill: '#98a2b3'}))));
        for (const edge of edges.values()) {
            const a = place.get(edge.from);
            const b = place.get(edge.to);
            if (!a || !b) {
                continue;
            }
            let d;
            let lx;
            let ly;
            if (vertical) {
                const x1 = a.x + W / 2;
                const y1 = a.y + H;
                const x2 = b.x + W / 2;
                const y2 = b.y;
                d = y2 > y1 ? `M${x1},${y1} C${x1},${y1 + 30} ${x2},${y2 - 30} ${x2},${y2}`
                    : `M${x1},${y1} C${x1 + 90},${y1 + 60} ${x2 + 90},${y2 - 60} ${x2},${y2}`;
                // beside the arrow's head: the relations of a fan-out do not overlap there
                lx = x2 + 6;
                ly = y2 - 10;
            } else {
                const x1 = a.x + W;
                const y1 = a.y + H / 2;
                const x2 = b.x;
                const y2 = b.y + H / 2;
                const forward = x2 > x1;
                d = forward ? `M${x1},${y1} C${x1 + 40},${y1} ${x2 - 40},${y2} ${x2},${y2}`
                    : `M${x1},${y1} C${x1 + 60},${y1 + 90} ${x2 - 60},${y2 + 90} ${x2},${y2}`;
                lx = (x1 + x2) / 2;
                ly = forward ? (y1 + y2) / 2 - 4 : Math.max(y1, y2) + 70;
            }
            const failure = edge.relations.includes('Failure');
            graph.append(svg('path', {cls: 'edge' + (failure ? ' failure' : ''), d, 'marker-end': 'url(#arrow)'}));
            graph.append(svg('text', {cls: 'rel', x: lx, y: ly, 'text-anchor': vertical ? 'start' : 'middle'}, edge.relations.join(' / ')));
        }
        const maxChars = Math.floor((W - 20) / 7);
        for (const {x, y, node} of place.values()) {
            const name = String(node.name || node.id);
            const debug = Boolean(figures && figures[node.id] && figures[node.id].debug);
            graph.append(svg('g', {cls: 'node' + (node.id === first ? ' first' : '') + (badNodes.has(node.id) ? ' bad' : '')
                + (debug ? ' debug' : ''),
                dataset: {nodeId: node.id}, transform: `translate(${x},${y})`},
            svg('title', null, `${name}: ${node.id} (${node.type})${debug ? ', in debug mode' : ''}`),
            svg('rect', {width: W, height: H, rx: 8}),
            svg('text', {cls: 'type', x: 12, y: 19}, String(node.type || '?')),
            svg('text', {cls: 'name', x: 12, y: 39}, name.length > maxChars ? name.slice(0, maxChars - 1) + '\u2026' : name),
            svg('text', {cls: 'figures', x: 12, y: 58}, nodeFigures(figures && figures[node.id]))));
        }
        replace(el, graph);
    }

    /** One line of a node's figures for the graph: messages in, failures, mean processing time; empty when unknown. */
    function nodeFigures(f) {
        if (!f) {
            return '';
        }
        const ms = f.meanProcessingMillis;
        return `in ${f.in} \u00b7 fail ${f.failures} \u00b7 ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
    }

    function editableChain(view) {
        return {
            name: view.name,
            firstNodeId: view.firstNodeId,
            nodes: view.nodes.map(node => {
                const copy = {id: node.id, type: node.type, name: node.name};
                if (node.configuration && Object.keys(node.configuration).length) {
                    copy.configuration = node.configuration;
                }
                return copy;
            }),
            connections: view.connections.map(c => ({from: c.from, to: c.to, relation: c.relation}))
        };
    }

    function ruleChainsPage(root, [wantedId]) {
        const picker = h('select', {id: 'chain-picker', onchange: () => {
            location.hash = '#/rule-chains/' + picker.value;
        }});
        const meta = h('span', {cls: 'sub'});
        const graph = h('div', {cls: 'graph-wrap', id: 'chain-graph-wrap'});
        const gutter = h('div', {cls: 'gutter', id: 'editor-gutter', 'aria-hidden': 'true'});
        const textarea = h('textarea', {id: 'chain-editor', spellcheck: 'false', wrap: 'off', autocomplete: 'off',
            'aria-label': 'Rule chain JSON'});
        const problems = h('ul', {cls: 'problems', id: 'chain-problems'});
        const result = h('span', {id: 'chain-result'});
        const saveButton = h('button', {type: 'button', cls: 'primary', id: 'chain-save', onclick: () => save()}, 'Save');
        const nodesBody = h('tbody', {id: 'chain-nodes'});
        const debugList = h('ul', {cls: 'debug-events', id: 'chain-debug'});
        let chain = null;
        let timer = null;
        let checkSeq = 0;
        let lineCount = 0;
        // the running chain's figures by node id, refreshed every two seconds; drawn on the saved chain, not on a draft
        let figures = null;
        let drawnDraft = false;
        let figuresTimer = null;
        let figuresSeq = 0;

        append(root, [
            h('div', {cls: 'page-head'}, h('h1', null, 'Rule chains'), picker, meta),
            h('section', {cls: 'card'}, h('h2', null, 'Graph', h('span', {cls: 'sub'}, 'nodes and their relations; the editor\'s draft as you type')), graph),
            h('section', {cls: 'card'},
                h('h2', null, 'Nodes', h('span', {cls: 'sub'}, 'the running chain: messages in, out by relation, failures, mean time; '
                    + 'debug mode keeps a node\'s last messages')),
                h('div', {cls: 'table-wrap'}, h('table', null,
                    h('thead', null, h('tr', null, ...['Node', 'Type', 'In', 'Out', 'Failures', 'Mean ms', 'Debug'].map(t => h('th', null, t)))),
                    nodesBody)),
                h('h2', null, 'Debug events', h('span', {cls: 'sub'}, 'newest first, from the nodes in debug mode')),
                debugList),
            h('section', {cls: 'card'},
                h('h2', null, 'JSON'),
                h('div', {cls: 'editor-tools'}, saveButton,
                    h('button', {type: 'button', id: 'chain-revert', onclick: () => load(chain.id)}, 'Revert'),
                    h('span', {cls: 'grow'}), result),
                problems,
                h('div', {cls: 'editor'}, gutter, textarea))
        ]);

        textarea.addEventListener('scroll', () => {
            gutter.scrollTop = textarea.scrollTop;
        });
        textarea.addEventListener('input', () => {
            renderGutter(new Map());
            result.textContent = '';
            clearTimeout(timer);
            timer = setTimeout(check, 400);
        });
        textarea.addEventListener('keydown', event => {
            if (event.key === 'Tab') {
                event.preventDefault();
                textarea.setRangeText('  ', textarea.selectionStart, textarea.selectionEnd, 'end');
            }
        });

        function renderGutter(errorLines) {
            const count = textarea.value.split('\n').length;
            if (count !== lineCount) {
                lineCount = count;
                const rows = [];
                for (let n = 1; n <= count; n++) {
                    rows.push(h('div', {dataset: {line: String(n)}}, String(n)));
                }
                // room for the text area's horizontal scroll bar, so the numbers stay in line at the bottom
                rows.push(h('div', null, ''), h('div', null, ''));
                replace(gutter, rows);
            }
            for (const row of gutter.children) {
                const messages = errorLines.get(Number(row.dataset.line));
                row.classList.toggle('err', Boolean(messages));
                row.title = messages ? messages.join('\n') : '';
            }
            gutter.scrollTop = textarea.scrollTop;
        }

        function goToLine(line) {
            const starts = textarea.value.split('\n').slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
            const end = textarea.value.indexOf('\n', starts);
            textarea.focus();
            textarea.setSelectionRange(starts, end < 0 ? textarea.value.length : end);
            textarea.scrollTop = Math.max(0, (line - 5) * 19);
        }

        /** Shows problems at their lines: [{line, column?, text}]. */
        function showProblems(list) {
            const byLine = new Map();
            for (const p of list) {
                byLine.set(p.line, [...(byLine.get(p.line) || []), p.text]);
            }
            renderGutter(byLine);
            replace(problems, list.map(p => h('li', {dataset: {line: String(p.line)}, onclick: () => goToLine(p.line)},
                h('span', {cls: 'where'}, p.column ? `line ${p.line}:${p.column}` : `line ${p.line}`), h('span', {cls: 'text'}, p.text))));
        }

        /** Parses the draft: a syntax error is shown at once; a well-formed draft is drawn and validated by the server. */
        async function check() {
            const text = textarea.value;
            let lines;
            let draft;
            try {
                lines = jsonLines(text);
                draft = JSON.parse(text);
            } catch (e) {
                showProblems([{line: e.line || 1, column: e.column, text: 'Malformed JSON: ' + e.message}]);
                return null;
            }
            const seq = ++checkSeq;
            try {
                const validation = await request('POST', '/api/console/rule-chains/validate', text);
                if (seq !== checkSeq) {
                    return null;
                }
                const list = validation.errors.map(error => ({line: lineOf(error, lines), text: error}));
                showProblems(list);
                drawnDraft = true;
                drawChain(graph, draft, badNodes(validation.errors, draft));
                return {lines, ok: validation.valid};
            } catch (e) {
                showProblems([{line: 1, text: e.message}]);
                return null;
            }
        }

        function badNodes(errors, draft) {
            const bad = new Set();
            for (const error of errors) {
                const m = /^nodes\[(\d+)\]/.exec(error);
                if (m && draft.nodes && draft.nodes[Number(m[1])]) {
                    bad.add(draft.nodes[Number(m[1])].id);
                }
            }
            return bad;
        }

        async function save() {
            clearTimeout(timer);
            const text = textarea.value;
            let lines;
            try {
                lines = jsonLines(text);
                JSON.parse(text);
            } catch (e) {
                showProblems([{line: e.line || 1, column: e.column, text: 'Malformed JSON: ' + e.message}]);
                return;
            }
            saveButton.disabled = true;
            try {
                const saved = await request('PUT', '/api/rule-chains/' + chain.id, text);
                show(saved);
                replace(result, h('span', {cls: 'saved'}, `Saved: version ${saved.version}, applied to the running chain`));
            } catch (e) {
                const errors = Array.isArray(e.problem.errors) ? e.problem.errors : [e.message];
                const list = errors.map(error => ({line: lineOf(error, lines), text: error}));
                showProblems(list);
                textarea.scrollTop = Math.max(0, (Math.min(...list.map(p => p.line)) - 5) * 19);
                replace(result, h('span', {cls: 'error-text'}, `Not saved (HTTP ${e.status})`));
            } finally {
                saveButton.disabled = false;
            }
        }

        function show(view) {
            chain = view;
            meta.textContent = `version ${view.version}${view.root ? ', root chain' : ''}, updated ${formatTime(view.updatedTime)}`;
            textarea.value = JSON.stringify(editableChain(view), null, 2);
            lineCount = 0;
            showProblems([]);
            drawnDraft = false;
            drawChain(graph, view, new Set(), figures);
            refreshFigures();
        }

        /** Reads the running chain's figures and debug events; redraws the saved chain's graph with them. */
        async function refreshFigures() {
            clearTimeout(figuresTimer);
            if (!chain) {
                return;
            }
            const seq = ++figuresSeq;
            try {
                const nodes = await request('GET', '/actuator/rulechains/' + chain.id);
                if (seq !== figuresSeq) {
                    return;
                }
                figures = nodes || {};
                renderNodes();
                if (!drawnDraft) {
                    drawChain(graph, chain, new Set(), figures);
                }
            } catch (e) {
                replace(nodesBody, h('tr', null, h('td', {colspan: 7, cls: 'empty'}, 'Figures unavailable: ' + e.message)));
            }
            figuresTimer = setTimeout(refreshFigures, 2000);
        }

        function renderNodes() {
            const names = new Map(chain.nodes.map(n => [n.id, n.name || n.id]));
            // in the chain's order; a node the chain no longer has (its figures outlive a version) at the end
            const order = new Map(chain.nodes.map((n, i) => [n.id, i]));
            const entries = Object.entries(figures).sort(([a], [b]) => (order.has(a) ? order.get(a) : 1e9) - (order.has(b) ? order.get(b) : 1e9));
            const rows = entries.map(([id, f]) => h('tr', {dataset: {nodeId: id}},
                h('td', null, names.get(id) || id),
                h('td', null, f.type),
                h('td', {cls: 'num in'}, String(f.in)),
                h('td', {cls: 'out'}, Object.entries(f.out).map(([relation, n]) => `${relation} ${n}`).join(', ') || '\u2013'),
                h('td', {cls: 'num failures'}, String(f.failures)),
                h('td', {cls: 'num'}, f.meanProcessingMillis.toFixed(2)),
                h('td', null, h('input', {type: 'checkbox', cls: 'debug-switch', checked: f.debug,
                    'aria-label': 'Debug mode of ' + (names.get(id) || id), onchange: event => switchDebug(id, event.target)}))));
            replace(nodesBody, rows.length ? rows : h('tr', null, h('td', {colspan: 7, cls: 'empty'}, 'No figures yet.')));
            const events = Object.entries(figures).flatMap(([id, f]) => f.debugEvents.map(e => ({node: names.get(id) || id, ...e})))
                .sort((a, b) => b.time - a.time).slice(0, 50);
            replace(debugList, events.length ? events.map(e => h('li', {dataset: {direction: e.direction}},
                h('span', {cls: 'when'}, formatTime(e.time)),
                h('span', {cls: 'dir'}, e.direction),
                h('span', {cls: 'node'}, e.node),
                h('span', {cls: 'rel'}, (e.relations || []).join(' / ')),
                h('code', null, JSON.stringify(e.data)),
                e.error ? h('span', {cls: 'error-text'}, e.error) : null))
                : h('li', {cls: 'empty'}, 'No debug events: switch a node\'s debug mode on.'));
        }

        async function switchDebug(nodeId, box) {
            box.disabled = true;
            try {
                await request('POST', '/actuator/rulechains/' + chain.id + '/' + encodeURIComponent(nodeId), {debug: box.checked});
                await refreshFigures();
            } catch (e) {
                box.checked = !box.checked;
                toast(e.message, true);
            } finally {
                box.disabled = false;
            }
        }

        async function load(id) {
            try {
                show(await request('GET', '/api/rule-chains/' + id));
                result.textContent = '';
            } catch (e) {
                toast(e.message, true);
            }
        }

        (async () => {
            try {
                const chains = await request('GET', '/api/rule-chains');
                if (chains.length === 0) {
                    replace(graph, h('div', {cls: 'empty'}, 'No rule chains.'));
                    return;
                }
                replace(picker, chains.map(c => h('option', {value: c.id}, c.name + (c.root ? ' (root)' : ''))));
                const chosen = chains.find(c => c.id === wantedId) || chains.find(c => c.root) || chains[0];
                picker.value = chosen.id;
                show(chosen);
            } catch (e) {
                toast(e.message, true);
            }
        })();
        return {dispose: () => {
            clearTimeout(timer);
            clearTimeout(figuresTimer);
            figuresSeq++;
        }};
    }

    // ------------------------------------------------------------------ actors

    function actorsPage(root) {
        const stats = h('div', {cls: 'stats', id: 'actor-stats'});
        const dispatchers = h('tbody', {id: 'dispatchers-body'});
        const tree = h('tbody', {id: 'actor-tree'});
        const note = h('span', {cls: 'sub'});
        const filter = h('input', {type: 'search', id: 'actor-filter', placeholder: 'Filter by name, id or type', oninput: () => last && render(last)});
        let last = null;

        append(root, [
            h('div', {cls: 'page-head'}, h('h1', null, 'Actors'), h('span', {cls: 'sub'}, 'the runtime, live')),
            stats,
            h('section', {cls: 'card'}, h('h2', null, 'Dispatchers'),
                h('div', {cls: 'table-wrap'}, h('table', {id: 'dispatchers-table'},
                    h('thead', null, h('tr', null, h('th', null, 'Name'), h('th', {cls: 'hide-phone'}, 'Kind'), h('th', {cls: 'num'}, 'Threads'),
                        h('th', {cls: 'num'}, 'Active'), h('th', {cls: 'num'}, 'Queued turns'), h('th', {cls: 'num'}, 'Messages/s'),
                        h('th', {cls: 'num'}, 'Actors'), h('th', {cls: 'num'}, 'Waiting'))),
                    dispatchers))),
            h('section', {cls: 'card'}, h('h2', null, 'Actor tree', note),
                h('div', {cls: 'tree-tools'}, filter),
                h('div', {cls: 'table-wrap'}, h('table', {cls: 'tree'},
                    h('thead', null, h('tr', null, h('th', null, 'Actor'), h('th', {cls: 'hide-phone'}, 'Dispatcher'),
                        h('th', {cls: 'hide-phone'}, 'State'), h('th', {cls: 'num'}, 'Mailbox'))),
                    tree)))
        ]);

        const stat = (label, value) => h('div', {cls: 'stat'}, h('div', {cls: 'label'}, label), h('div', {cls: 'value'}, value));
        const unknown = n => (n < 0 ? '\u2013' : String(n));

        function render(data) {
            last = data;
            const rate = data.dispatchers.reduce((sum, d) => sum + d.messagesPerSecond, 0);
            replace(stats, stat('Live actors', data.count), stat('Waiting messages', data.pendingMessages),
                stat('Messages/s', rate.toFixed(1)), stat('Actor system', data.running ? 'running' : 'stopped'));
            replace(dispatchers, data.dispatchers.map(d => h('tr', {dataset: {dispatcher: d.name}},
                h('td', null, h('b', null, d.name)), h('td', {cls: 'hide-phone muted'}, d.kind),
                h('td', {cls: 'num'}, unknown(d.threads) + (d.poolSize > 0 ? ' / ' + d.poolSize : '')),
                h('td', {cls: 'num'}, unknown(d.activeThreads)), h('td', {cls: 'num'}, unknown(d.queuedTurns)),
                h('td', {cls: 'num rate'}, d.messagesPerSecond.toFixed(1)), h('td', {cls: 'num'}, d.actors),
                h('td', {cls: 'num'}, d.pendingMessages))));
            const words = filter.value.trim().toLowerCase();
            const rows = words ? data.actors.filter(a => (a.label + ' ' + a.id + ' ' + a.actorType).toLowerCase().includes(words)) : data.actors;
            const deepest = Math.max(1, ...data.actors.map(a => a.pendingMessages));
            note.textContent = data.truncated ? `first ${data.actors.length} of ${data.count} shown` : `${data.count} actors`;
            replace(tree, rows.length === 0 ? h('tr', null, h('td', {colspan: 4, cls: 'empty'}, 'No actor matches.')) : rows.map(a => {
                const deviceId = a.actorType === 'DeviceActor' && a.id.startsWith('DEVICE|') ? a.id.slice(7) : null;
                const name = deviceId ? h('a', {cls: 'name', href: '#/devices/' + deviceId}, a.label) : h('span', {cls: 'name'}, a.label);
                return h('tr', {dataset: {actorId: a.id, actorType: a.actorType}},
                    h('td', null, h('div', {cls: 'label', style: `padding-left:${(words ? 0 : a.depth) * 18}px`},
                        h('span', {cls: 'kind kind-' + a.actorType, title: a.actorType}, KIND_LETTER[a.actorType] || '?'),
                        name, a.label !== a.id ? h('span', {cls: 'id', title: a.id}, a.id) : null)),
                    h('td', {cls: 'hide-phone muted'}, a.dispatcher),
                    h('td', {cls: 'hide-phone'}, a.state === 'ACTIVE' ? h('span', {cls: 'muted'}, 'active') : h('b', null, a.state.toLowerCase())),
                    h('td', {cls: 'num'}, h('div', {cls: 'depth'}, h('span', {cls: 'mailbox'}, a.pendingMessages),
                        h('div', {cls: 'bar' + (a.pendingMessages >= 100 ? ' hot' : '')},
                            h('span', {style: `width:${Math.round(100 * a.pendingMessages / deepest)}%`})))));
            }));
        }

        return {onActors: render};
    }

    // ------------------------------------------------------------------ start

    function start() {
        window.addEventListener('hashchange', route);
        window.addEventListener('pagehide', pause);
        window.addEventListener('pageshow', event => {
            if (event.persisted) {
                connect();
            }
        });
        route();
        connect();
    }

    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', start);
    } else {
        start();
    }
})();
