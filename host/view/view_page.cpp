// The live view's page: one file of HTML, CSS and JS, nothing fetched from
// elsewhere. It reads /events (Server-Sent Events, one JSON snapshot each;
// RECORDING.md describes them) and draws the newest; Pause stops drawing, not
// the recording. Every figure shown is also in a data-figure/data-value
// attribute (the value as the snapshot has it), so tests read what is shown.
#include "view/view_server.hpp"

namespace tband::view {

const std::string& view_page() {
  static const std::string page = R"TBANDPAGE(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>tband live view</title>
<style>
body{font:13px system-ui,sans-serif;margin:0;background:#fafafa;color:#222}
header{background:#263238;color:#eee;padding:6px 12px;display:flex;gap:18px;align-items:center;flex-wrap:wrap}
header b{color:#fff}
button{font:inherit;padding:2px 10px}
main{display:grid;grid-template-columns:1fr 1fr;gap:10px;padding:10px}
section{background:#fff;border:1px solid #ddd;border-radius:4px;padding:6px 10px;min-width:0}
section.wide{grid-column:1 / span 2}
h2{font-size:13px;margin:2px 0 6px;color:#455a64}
table{border-collapse:collapse;width:100%}
td,th{padding:1px 6px;text-align:right;white-space:nowrap}
td:first-child,th:first-child{text-align:left}
th{color:#607d8b;font-weight:normal;border-bottom:1px solid #eee}
.bad{color:#c62828;font-weight:bold}
#events{font:12px monospace;height:160px;overflow:auto;white-space:pre}
canvas{width:100%;display:block}
.plot{display:inline-block;width:32%;margin-right:1%;vertical-align:top}
.plot div{font-size:12px;color:#455a64}
</style></head><body>
<header><b>tband live view</b><span id="state">connecting...</span>
<span>dropped <b id="dropped" data-figure="recording.dropped_events">0</b></span>
<span>decode errors <b id="decode_errors" data-figure="recording.decode_errors">0</b></span>
<span>link losses <b id="link_losses" data-figure="recording.link_losses">n/a</b></span>
<span>gaps <b id="gaps" data-figure="recording.gaps">0</b></span>
<button id="pause">Pause</button></header>
<main>
<section class="wide"><h2>Now and the last seconds (trace time)</h2><div id="now"></div><canvas id="timeline" height="160"></canvas></section>
<section><h2>CPU load per task (<span class="wlabel">window</span> | since start)</h2><table id="tasks"></table></section>
<section><h2>ISRs (<span class="wlabel">window</span> | since start)</h2><table id="isrs"></table></section>
<section><h2>Marker spans (since start)</h2><table id="spans"></table></section>
<section><h2>Recording</h2><table id="rec"></table></section>
<section class="wide"><h2>Values and counters</h2><div id="plots"></div></section>
<section class="wide"><h2>Last events <select id="kind"><option value="">all kinds</option></select></h2><div id="events"></div></section>
</main>
<script>
"use strict";
let paused=false,last=null,kinds=new Set();
const $=id=>document.getElementById(id);
$("pause").onclick=()=>{paused=!paused;$("pause").textContent=paused?"Resume":"Pause";if(!paused&&last)draw(last);};
$("kind").onchange=()=>{if(last)drawEvents(last);};
function esc(s){return String(s).replace(/[&<>"]/g,c=>({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c]));}
function num(v,unit){if(v===null||v===undefined)return"-";
 if(unit==="ns"){if(v>=1e9)return(v/1e9).toFixed(3)+" s";if(v>=1e6)return(v/1e6).toFixed(3)+" ms";if(v>=1e3)return(v/1e3).toFixed(2)+" us";return Math.round(v)+" ns";}
 if(unit==="%")return v.toFixed(1)+" %";if(unit==="/s")return v.toFixed(1)+"/s";return String(Math.round(v*1000)/1000);}
function cell(scope,name,v,unit){return `<td data-scope="${scope}" data-figure="${esc(name)}" data-value="${v===null||v===undefined?"":v}">${num(v,unit)}</td>`;}
function rows(stats,section){return stats?stats.rows.filter(r=>r.section===section):[];}
function byPrefix(stats){const m={};if(stats)for(const r of stats.rows)m[r.prefix]=r;return m;}
function bytes(n){return n>=1e6?(n/1e6).toFixed(2)+" MB":n>=1e3?(n/1e3).toFixed(1)+" kB":n+" B";}
function draw(s){
 const r=s.recording;
 $("state").innerHTML=(r.ended?"<b>recording ended</b>":(r.mode==="follow"?"following":"recording"))+
  ` ${bytes(r.bytes)}, ${bytes(r.bytes_per_s)}/s, ${r.events} events, ${r.seconds.toFixed(1)} s`;
 for(const k of["dropped_events","decode_errors","gaps"]){const id=k==="dropped_events"?"dropped":k;const e=$(id);e.textContent=r[k];e.dataset.value=r[k];e.className=r[k]?"bad":"";}
 const ll=$("link_losses");ll.textContent=r.link_losses===null?"n/a":r.link_losses;ll.dataset.value=r.link_losses===null?"":r.link_losses;ll.className=r.link_losses?"bad":"";
 $("rec").innerHTML=`<tr><td>bytes</td><td data-figure="recording.bytes" data-value="${r.bytes}">${bytes(r.bytes)}</td></tr>`+
  `<tr><td>rate</td><td>${bytes(r.bytes_per_s)}/s</td></tr><tr><td>events</td><td data-figure="recording.events" data-value="${r.events}">${r.events}</td></tr>`+
  `<tr><td>sources open</td><td>${r.sources_open} of ${r.sources}</td></tr>`+
  r.files.map(f=>`<tr><td>file</td><td>${esc(f)}</td></tr>`).join("")+
  `<tr><td>rotation</td><td>${r.rotate_bytes?bytes(r.rotate_bytes)+" parts":"none"}${r.compress?", zstd":""}</td></tr>`;
 $("now").innerHTML=s.now.map(c=>`<span data-core="${c.core}">core ${c.core}: <b data-now="task">${esc(c.task??"-")}</b>`+
  (c.isr?` in ISR <b data-now="isr">${esc(c.isr)}</b>`:"")+"</span>").join(" &nbsp; ");
 const w=byPrefix(s.window);
 for(const e of document.querySelectorAll(".wlabel"))e.textContent="last "+(s.window_ns/1e6)+" ms";
 $("tasks").innerHTML="<tr><th>task</th><th>CPU last window</th><th>CPU since start</th><th>switches</th></tr>"+
  rows(s.total,"task").map(t=>{const tw=w[t.prefix];return `<tr><td>${esc(t.name)}</td>`+cell("window",t.prefix+".cpu",tw?tw.figures.cpu:null,"%")+
   cell("total",t.prefix+".cpu",t.figures.cpu,"%")+cell("total",t.prefix+".switches",t.figures.switches,"")+"</tr>";}).join("");
 if(!rows(s.total,"task").length)$("tasks").innerHTML+="<tr><td>no tasks in the trace (bare metal)</td></tr>";
 const lastDur={};const tl=s.timeline;
 for(const sl of tl.slices)if(sl[0]==="isr"){const n=tl.names[sl[2]];if(!(n in lastDur)||sl[4]>lastDur[n][0])lastDur[n]=[sl[4],(sl[4]-sl[3])*1000];}
 $("isrs").innerHTML="<tr><th>ISR</th><th>rate last window</th><th>rate since start</th><th>last</th><th>max</th><th>p99</th></tr>"+
  rows(s.total,"isr").map(i=>{const iw=w[i.prefix];const ld=lastDur[i.name];return `<tr><td>${esc(i.name)}</td>`+
   cell("window",i.prefix+".rate",iw?iw.figures.rate:null,"/s")+cell("total",i.prefix+".rate",i.figures.rate,"/s")+
   `<td data-figure="${esc(i.prefix)}.duration.last" data-value="${ld?ld[1]:""}">${ld?num(ld[1],"ns"):"-"}</td>`+
   cell("total",i.prefix+".duration.max",i.figures["duration.max"],"ns")+cell("total",i.prefix+".duration.p99",i.figures["duration.p99"],"ns")+"</tr>";}).join("");
 $("spans").innerHTML="<tr><th>marker</th><th>count</th><th>mean</th><th>max</th></tr>"+
  rows(s.total,"marker").filter(m=>m.figures.count).map(m=>`<tr><td>${esc(m.name)}</td>`+cell("total",m.prefix+".count",m.figures.count,"")+
   cell("total",m.prefix+".duration.mean",m.figures["duration.mean"],"ns")+cell("total",m.prefix+".duration.max",m.figures["duration.max"],"ns")+"</tr>").join("");
 drawTimeline(s);drawPlots(s);drawEvents(s);
}
function color(name){let h=0;for(const c of name)h=(h*31+c.charCodeAt(0))>>>0;return`hsl(${h%360},55%,55%)`;}
function drawTimeline(s){
 const tl=s.timeline,cv=$("timeline"),W=cv.width=cv.clientWidth||900;
 const lanes=[];const key=sl=>sl[0]==="span"?"span "+tl.names[sl[2]]:(sl[0]==="isr"?"core "+sl[1]+" ISRs":"core "+sl[1]+" tasks");
 for(const sl of tl.slices){const k=key(sl);if(!lanes.includes(k))lanes.push(k);}
 lanes.sort();const H=cv.height=Math.max(40,lanes.length*18+16);const g=cv.getContext("2d");
 g.clearRect(0,0,W,H);g.font="11px sans-serif";const L=110;
 let span=1;for(const sl of tl.slices)span=Math.max(span,-sl[3]);span=Math.min(span,tl.span_us);
 lanes.forEach((k,i)=>{g.fillStyle="#555";g.fillText(k,2,i*18+13);});
 for(const sl of tl.slices){const i=lanes.indexOf(key(sl));const x0=L+(W-L)*(1+sl[3]/span),x1=L+(W-L)*(1+sl[4]/span);
  g.fillStyle=color(tl.names[sl[2]]);g.fillRect(Math.max(L,x0),i*18+3,Math.max(1,x1-Math.max(L,x0)),14);}
 g.fillStyle="#555";g.fillText(`-${span>=1e5?(span/1e6).toFixed(1)+" s":(span/1e3).toFixed(1)+" ms"}`,L,H-2);g.fillText("now",W-24,H-2);
 cv.dataset.slices=tl.slices.length;
}
function drawPlots(s){
 const box=$("plots");const have=new Set();
 for(const p of s.plots){const id="plot-"+p.kind+"-"+p.name;have.add(id);let d=document.getElementById(id);
  if(!d){d=document.createElement("div");d.className="plot";d.id=id;d.innerHTML="<div></div><canvas height=\"80\"></canvas>";box.appendChild(d);}
  const lastv=p.points.length?p.points[p.points.length-1][1]:null;
  d.dataset.plot=p.name;d.dataset.points=p.points.length;d.dataset.last=lastv;
  d.firstChild.textContent=`${p.kind} ${p.name}: ${lastv}`;
  const cv=d.lastChild,W=cv.width=cv.clientWidth||300,H=cv.height,g=cv.getContext("2d");g.clearRect(0,0,W,H);
  let lo=Infinity,hi=-Infinity,t0=Infinity;for(const[t,v]of p.points){lo=Math.min(lo,v);hi=Math.max(hi,v);t0=Math.min(t0,t);}
  if(hi===lo){hi+=1;lo-=1;}const x=t=>W*(t-t0)/Math.max(1,-t0),y=v=>H-4-(H-8)*(v-lo)/(hi-lo);
  g.strokeStyle=color(p.name);g.beginPath();p.points.forEach(([t,v],i)=>i?g.lineTo(x(t),y(v)):g.moveTo(x(t),y(v)));g.stroke();}
 for(const d of[...box.children])if(!have.has(d.id))d.remove();
}
function kindOf(name){const i=name.indexOf("_");return i>0?name.slice(0,i):name;}
function drawEvents(s){
 for(const e of s.events){const k=kindOf(e.name);if(!kinds.has(k)){kinds.add(k);const o=document.createElement("option");o.value=k;o.textContent=k;$("kind").appendChild(o);}}
 const want=$("kind").value;
 $("events").textContent=s.events.filter(e=>!want||kindOf(e.name)===want).map(e=>`${(e.ts_ns/1e9).toFixed(6)} s  core ${e.core}  ${e.name}`).join("\n");
}
function got(text){const s=JSON.parse(text);last=s;document.body.dataset.updates=(+document.body.dataset.updates||0)+1;
 document.body.dataset.ended=s.recording.ended;if(!paused)draw(s);}
const es=new EventSource("/events");
es.onmessage=m=>got(m.data);
es.onerror=()=>{if(last&&last.recording.ended){es.close();}else{$("state").textContent=last?"connection lost, retrying...":"connecting...";}};
</script></body></html>
)TBANDPAGE";
  return page;
}

}  // namespace tband::view
