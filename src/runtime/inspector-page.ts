/**
 * The inspector's one page: plain HTML, CSS and a little JavaScript, no CDN (works offline).
 * Everything shown is set as text (never parsed as HTML). The inbound key, when the page was
 * opened with `?key=`, is passed on to the API calls and never written into the document.
 */
export const INSPECTOR_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Interlingua inspector</title>
<style>
:root{--bg:#f6f7f9;--fg:#1d2330;--mut:#667085;--line:#d9dde5;--acc:#2856d8;--bad:#c0362c;--warn:#9a6200;--warnbg:#fff4d6;--ok:#1f7a3d}
*{box-sizing:border-box}body{margin:0;font:13px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
header{display:flex;gap:12px;align-items:center;padding:8px 14px;background:#1d2330;color:#fff}
header h1{font-size:15px;margin:0 12px 0 0}header label{color:#c9d1e0}header select,header input{font:inherit;padding:2px 4px}
#live{margin-left:auto;font-size:12px}#live.on{color:#7ee2a0}#live.off{color:#f59e8b}
main{display:grid;grid-template-columns:minmax(780px,54%) 1fr;height:calc(100vh - 42px)}
#list{overflow:auto;border-right:1px solid var(--line);background:#fff}
table{border-collapse:collapse;width:100%}th,td{padding:4px 5px;font-size:12px;border-bottom:1px solid var(--line);text-align:left;white-space:nowrap}
th{position:sticky;top:0;background:#eef0f4;font-weight:600;font-size:12px}tr.row{cursor:pointer}tr.row:hover{background:#f0f4ff}tr.sel{background:#dfe8ff}
td.num{text-align:right;font-variant-numeric:tabular-nums}.s2{color:var(--ok)}.s4,.s5{color:var(--bad);font-weight:600}.pending{color:var(--mut)}
.w{color:var(--warn);font-weight:600}#detail{overflow:auto;padding:12px 16px}
h2{font-size:15px;margin:4px 0 8px}h3{font-size:13px;margin:16px 0 6px;border-bottom:1px solid var(--line);padding-bottom:3px}
pre{background:#fff;border:1px solid var(--line);padding:8px;margin:4px 0;overflow:auto;max-height:360px;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap;word-break:break-all}
.lost{background:var(--warnbg);outline:1px solid #e8c15a}.loss{background:var(--warnbg);border:1px solid #e8c15a;padding:6px 10px;border-radius:4px}
.loss li{font-family:ui-monospace,monospace}.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}.kv b{color:var(--mut);font-weight:500}
button{font:inherit;padding:3px 10px;margin:0 6px 6px 0;border:1px solid var(--acc);background:#fff;color:var(--acc);border-radius:4px;cursor:pointer}button:hover{background:#eef3ff}
.timeline{border:1px solid var(--line);background:#fff;max-height:420px;overflow:auto}.ev{border-bottom:1px solid #eef0f4}
.ev summary{cursor:pointer;padding:2px 6px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-family:ui-monospace,monospace;font-size:12px}.ev summary .t{display:inline-block;width:70px;color:var(--mut);text-align:right;margin-right:10px}
.ev pre{margin:0 6px 6px 86px;max-height:200px}.attempt{border-left:3px solid var(--acc);padding-left:10px;margin:8px 0}.attempt.failed{border-color:var(--bad)}
.heads summary{cursor:pointer;color:var(--mut);font-size:12px}.empty{color:var(--mut);padding:24px}#toast{position:fixed;bottom:12px;right:12px;background:#1d2330;color:#fff;padding:6px 12px;border-radius:4px;display:none}
</style></head><body>
<header><h1>Interlingua inspector</h1>
<label>status <select id="f-status"><option value="">all</option><option value="ok">ok</option><option value="error">errors</option><option value="4xx">4xx</option><option value="5xx">5xx</option></select></label>
<label>dialect <select id="f-dialect"><option value="">all</option><option>openai-chat</option><option>openai-responses</option><option>anthropic</option><option>gemini</option><option>gemini-interactions</option><option>openai</option></select></label>
<label>model <input id="f-model" size="14" placeholder="contains…"></label>
<span id="count"></span><span id="live" class="off">● connecting</span></header>
<main><section id="list"><table><thead><tr><th>time</th><th>caller → upstream</th><th>model</th><th>status</th><th>TTFT</th><th>total</th><th>overhead</th><th>tokens</th><th>cost</th><th>warn</th></tr></thead><tbody id="rows"></tbody></table>
<div id="nolist" class="empty">No exchanges yet: send a request through the proxy.</div></section>
<section id="detail"><div class="empty">Select an exchange.</div></section></main><div id="toast"></div>
<script>
(function(){
var KEY=new URLSearchParams(location.search).get('key');
function api(p){return '/_inspector/api/'+p+(KEY?(p.indexOf('?')<0?'?':'&')+'key='+encodeURIComponent(KEY):'')}
var hdrs=KEY?{authorization:'Bearer '+KEY}:{};
var all=new Map(),selected=null;
function $(id){return document.getElementById(id)}
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=String(text);return e}
function ms(v){return v==null?'':Math.round(v)+' ms'}
function usd(s){return s.cost!=null?'$'+(s.cost<0.01?s.cost.toPrecision(3):s.cost.toFixed(4)):s.unpriced?'unpriced':''}
function toast(t){var x=$('toast');x.textContent=t;x.style.display='block';setTimeout(function(){x.style.display='none'},1800)}
function who(s){return s.callerDialect!=='none'?s.callerDialect:s.method+' '+s.path}
function route(s){var u=s.upstream;if(!u)return who(s)+' → –';var d=(u.provider?u.provider+', ':'')+u.dialect;return who(s)+' → '+u.name+(d!==u.name?' ('+d+')':'')}
function visible(s){var st=$('f-status').value,d=$('f-dialect').value,m=$('f-model').value;
 if(st==='ok'&&!(s.status>0&&s.status<400))return false;if(st==='error'&&s.status<400)return false;
 if(/xx$/.test(st)&&Math.floor(s.status/100)!==Number(st[0]))return false;
 if(d&&s.callerDialect!==d&&!(s.upstream&&s.upstream.dialect===d))return false;if(m&&(s.model||'').indexOf(m)<0)return false;return true}
function render(){var tb=$('rows');tb.textContent='';var list=Array.from(all.values()).sort(function(a,b){return Number(b.id.slice(3))-Number(a.id.slice(3))});var n=0;
 list.forEach(function(s){if(!visible(s))return;n++;var tr=el('tr','row'+(s.id===selected?' sel':''));tr.dataset.id=s.id;
  tr.appendChild(el('td',null,s.time.slice(11,23)));tr.appendChild(el('td',null,route(s)+(s.dryRun?' [dry-run]':'')));tr.appendChild(el('td',null,s.model||''));
  tr.appendChild(el('td',s.done?'s'+String(s.status)[0]:'pending',s.done?s.status:'…'));tr.appendChild(el('td','num',ms(s.ttftMs)));tr.appendChild(el('td','num',ms(s.totalMs)));
  tr.appendChild(el('td','num',ms(s.overheadMs)));tr.appendChild(el('td','num',s.tokensIn!=null||s.tokensOut!=null?(s.tokensIn||0)+' / '+(s.tokensOut||0)+(s.tokensEstimated?' ~':''):''));tr.appendChild(el('td','num',usd(s)));
  tr.appendChild(el('td',s.warnings.length?'num w':'num',s.warnings.length||''));tr.onclick=function(){open(s.id)};tb.appendChild(tr)});
 $('nolist').style.display=n?'none':'block';$('count').textContent=n+' shown'}
['f-status','f-dialect','f-model'].forEach(function(id){$(id).addEventListener('input',render)});
function pretty(v){return typeof v==='string'?v:JSON.stringify(v,null,2)}
function lostKeys(ex){var out={};ex.warnings.forEach(function(w){var p=w.slice(w.indexOf(':')+1).split(/[.\\[]/);p.forEach(function(seg){seg=seg.replace(/\\]$/,'');if(seg&&!/^\\d+$/.test(seg))out[seg]=w})});return out}
function body(v,lost){var pre=el('pre');if(v===undefined){pre.textContent='(none)';return pre}
 pretty(v).split('\\n').forEach(function(line,i){var m=/^\\s*"([^"]+)":/.exec(line);if(i)pre.appendChild(document.createTextNode('\\n'));var span=el('span',m&&lost&&lost[m[1]]?'lost':null,line);if(span.className)span.title='loss report: '+lost[m[1]];pre.appendChild(span)});return pre}
function heads(h){var d=el('details','heads');d.appendChild(el('summary',null,'headers ('+Object.keys(h||{}).length+')'));d.appendChild(body(h));return d}
function kv(o){var d=el('div','kv');Object.keys(o).forEach(function(k){if(o[k]==null||o[k]==='')return;d.appendChild(el('b',null,k));d.appendChild(el('span',null,o[k]))});return d}
function timeline(events){var box=el('div','timeline');events.forEach(function(e){var d=el('details','ev');var s=el('summary');s.appendChild(el('span','t','+'+Math.round(e.at)+' ms'));
 var t=e.event||(e.data&&typeof e.data==='object'&&(e.data.type||e.data.object))||'data';var short=typeof e.data==='string'?e.data:JSON.stringify(e.data);
 s.appendChild(el('span',null,t+'  '+(short||'').slice(0,110)));d.appendChild(s);d.appendChild(el('pre',null,pretty(e.data)));box.appendChild(d)});return box}
var PH={openai:'$OPENAI_API_KEY','openai-chat':'$OPENAI_API_KEY','openai-responses':'$OPENAI_API_KEY',anthropic:'$ANTHROPIC_API_KEY',gemini:'$GEMINI_API_KEY','gemini-interactions':'$GEMINI_API_KEY'};
function sq(s){return "'"+String(s).replace(/'/g,"'\\\\''")+"'"}
function curl(method,url,headers,b,ph){var parts=['curl -X '+method+' '+sq(url)];Object.keys(headers||{}).forEach(function(k){if(/^(content-length|host|connection)$/.test(k))return;var v=headers[k];
 if(v==='***'){parts.push('  -H "'+k+': '+(k==='authorization'?'Bearer ':'')+ph+'"');return}parts.push('  -H '+sq(k+': '+v))});
 if(b!==undefined)parts.push('  --data-raw '+sq(typeof b==='string'?b:JSON.stringify(b)));return parts.join(' \\\\\\n')}
function copy(text){(navigator.clipboard?navigator.clipboard.writeText(text):Promise.reject()).then(function(){toast('copied')},function(){var t=el('textarea');t.value=text;document.body.appendChild(t);t.select();try{document.execCommand('copy');toast('copied')}catch(e){}t.remove()})}
function open(id){selected=id;render();fetch(api('exchanges/'+id),{headers:hdrs}).then(function(r){return r.json()}).then(show)}
function show(ex){var d=$('detail');d.textContent='';if(!ex||!ex.id){d.appendChild(el('div','empty','Exchange gone (the ring keeps the newest).'));return}
 d.appendChild(el('h2',null,ex.method+' '+ex.path+' · '+route(ex)+' · '+(ex.done?ex.status:'in progress')));
 var bar=el('div');var cb=ex.caller.body,whole=cb!==undefined&&!(cb&&typeof cb==='object'&&cb.truncated),bodyless=ex.caller.method==='GET'||ex.caller.method==='HEAD'||ex.caller.method==='DELETE';
 if(whole||bodyless){var b1=el('button',null,'Copy caller request as curl');b1.onclick=function(){copy(curl(ex.caller.method,location.origin+ex.caller.path,ex.caller.headers,ex.caller.body,'$INTERLINGUA_KEY'))};bar.appendChild(b1)}
 var a=ex.attempts[ex.attempts.length-1];if(a&&a.url){var b2=el('button',null,'Copy upstream request as curl');b2.onclick=function(){var u=ex.plan.filter(function(p){return p.upstream===a.upstream})[0];copy(curl(a.method||'POST',a.url,a.headers,a.body,PH[u?u.dialect:'openai']||'$API_KEY'))};bar.appendChild(b2)}
 if(whole){var b3=el('button',null,'Replay as dry-run');b3.onclick=function(){fetch(api('exchanges/'+ex.id+'/replay'),{method:'POST',headers:hdrs}).then(function(r){return r.json()}).then(function(j){var p=$('replay');p.textContent='';p.appendChild(el('h3',null,'Dry-run replay ('+j.status+')'));p.appendChild(body(j.body!==undefined?j.body:j))})};bar.appendChild(b3)}
 if(whole||bodyless){var b4=el('button',null,'Download fixture');b4.onclick=function(){fetch(api('exchanges/'+ex.id+'/fixture'),{headers:hdrs}).then(function(r){return r.blob()}).then(function(bl){var l=el('a');l.href=URL.createObjectURL(bl);l.download='interlingua-'+ex.id+'.json';document.body.appendChild(l);l.click();l.remove()})};bar.appendChild(b4)}d.appendChild(bar);
 if(!whole&&!bodyless)d.appendChild(el('p','nobody',cb===undefined?'No caller body was read (the request was refused before it): nothing to replay or copy.':'The caller body was too large to keep whole: nothing to replay or copy.'));
 var lost=lostKeys(ex);
 if(ex.warnings.length){d.appendChild(el('h3',null,'Loss report ('+ex.warnings.length+')'));var box=el('div','loss');box.id='loss';var ul=el('ul');ex.warnings.forEach(function(w){ul.appendChild(el('li',null,w))});box.appendChild(ul);
  box.appendChild(el('div',null,'Highlighted below next to the fields they concern.'));d.appendChild(box)}
 if(ex.error)d.appendChild(kv({error:ex.error}));
 d.appendChild(el('h3',null,'Timings'));d.appendChild(kv({time:ex.time,'request id':ex.requestId,'time to first token':ms(ex.ttftMs),total:ms(ex.totalMs),'upstream (headers)':ms(ex.upstreamMs),'proxy overhead':ms(ex.overheadMs),tokens:ex.tokensIn!=null?ex.tokensIn+' in / '+(ex.tokensOut||0)+' out'+(ex.tokensEstimated?' (estimated: the stream was cut short)':''):'',cost:ex.cost!=null?usd(ex)+' (US dollars)':ex.unpriced?'unpriced: '+ex.unpriced+' has no price':'',key:ex.keyName||'',limit:ex.limit?'refused by '+ex.limit:''}));
 d.appendChild(el('h3',null,'Caller request ('+who(ex)+')'));d.appendChild(kv({route:ex.route,model:ex.model||''}));d.appendChild(heads(ex.caller.headers));d.appendChild(body(ex.caller.body,lost));
 d.appendChild(el('h3',null,'Plan'));var ol=el('ol');ex.plan.forEach(function(p,i){ol.appendChild(el('li',null,(i?'fallback: ':'first: ')+p.upstream+' ('+(p.provider?p.provider+', ':'')+p.dialect+') as '+(p.model||ex.model)+' — '+p.baseUrl))});d.appendChild(ol);
 ex.attempts.forEach(function(at,i){var box=el('div','attempt'+(at.status&&at.status<400?'':' failed'));box.appendChild(el('h3',null,'Upstream attempt '+(i+1)+': '+at.upstream+(at.retry?' (retry '+at.retry+')':'')+' → '+(at.status||at.error||'…')+' (+'+Math.round(at.at)+' ms)'));
  box.appendChild(kv({request:(at.method||'')+' '+(at.url||'')}));box.appendChild(heads(at.headers));box.appendChild(body(at.body,lost));
  if(at.error)box.appendChild(kv({error:at.error}));if(at.response!==undefined){box.appendChild(el('h3',null,'Response'));box.appendChild(body(at.response))}
  if(at.events){box.appendChild(el('h3',null,'Stream events ('+at.events.length+')'));box.appendChild(timeline(at.events))}d.appendChild(box)});
 d.appendChild(el('h3',null,'Caller received ('+ex.received.status+')'));d.appendChild(heads(ex.received.headers));
 if(ex.received.passthrough)d.appendChild(el('p',null,'Same dialect: the upstream stream above was forwarded as it came; below, only the frames the proxy added.'));
 if(ex.received.events){var tl=timeline(ex.received.events);tl.id='received-timeline';d.appendChild(tl)}else d.appendChild(body(ex.received.body));
 if(ex.notes.length){d.appendChild(el('h3',null,'Notes'));ex.notes.forEach(function(n){d.appendChild(kv({stage:n.stage}));d.appendChild(body(n.data))})}
 var r=el('div');r.id='replay';d.appendChild(r)}
function load(){fetch(api('exchanges'),{headers:hdrs}).then(function(r){return r.json()}).then(function(j){(j.exchanges||[]).forEach(function(s){all.set(s.id,s)});render()})}
function live(){var es=new EventSource(api('events'));es.onopen=function(){$('live').textContent='● live';$('live').className='on'};
 es.onerror=function(){$('live').textContent='● reconnecting';$('live').className='off'};
 es.addEventListener('exchange',function(m){var s=JSON.parse(m.data);all.set(s.id,s);render();if(s.id===selected&&s.done)open(s.id)})}
load();live();
})();
</script></body></html>
`;
