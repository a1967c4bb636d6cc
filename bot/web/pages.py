"""The HTML of the web page: pure functions of what a page shows, to bytes.

Pages work without JavaScript: every turn is a link, every time is written in UTC. One
small script (the same bytes on every page, allowed by its hash in the
Content-Security-Policy, never by a nonce: a page's bytes depend only on the database)
shows times in the reader's zone, follows live updates and zooms big boards: into the
one picture, or, for a board drawn in tiles, into the tiles in sight at the scale shown.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html import escape

from bot.games.base import GamePhase

STYLE = """
:root{color-scheme:light dark;--ink:#14202b;--paper:#f6f4ef;--line:#c9c3b6;--accent:#0b5c8a}
@media (prefers-color-scheme:dark){:root{--ink:#e8e4da;--paper:#101820;--line:#37434f;--accent:#6cb8e6}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,sans-serif;color:var(--ink);background:var(--paper)}
header,main,footer{max-width:72rem;margin:0 auto;padding:.75rem 1rem}
header a{color:inherit;text-decoration:none;font-weight:700}
a{color:var(--accent)}
h1{font-size:1.5rem;margin:.25rem 0}
h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
.scroll{overflow-x:auto}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
nav.steps{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.5rem 0}
nav.steps a,nav.steps span{padding:.3rem .7rem;border:1px solid var(--line);border-radius:.4rem}
nav.steps span.off{opacity:.45}
.board{position:relative;overflow:auto;width:fit-content;max-width:100%;max-height:85vh;border:1px solid var(--line);touch-action:manipulation}
.board img{display:block;max-width:100%;max-height:80vh;width:auto;height:auto}
.board.zoomed img{max-width:none;max-height:none;height:auto;image-rendering:pixelated}
.tiles{position:relative;overflow:auto;max-width:100%;height:80vh;border:1px solid var(--line);background:#0c1b2b}
.plane{position:relative;overflow:hidden}
.plane img{position:absolute;display:block;image-rendering:pixelated}
.tiled{position:relative}
.minimap{box-sizing:content-box;position:absolute;top:.5rem;right:1.1rem;z-index:1;overflow:hidden;border:1px solid var(--line);background:#0c1b2b;box-shadow:0 1px 5px rgba(0,0,0,.55);cursor:crosshair;touch-action:none}
.minimap img{position:absolute;display:block;pointer-events:none}
.minimap .inview{position:absolute;min-width:4px;min-height:4px;border:2px solid #ffd23f;box-shadow:0 0 0 1px rgba(0,0,0,.7);pointer-events:none}
.zoom{display:flex;flex-wrap:wrap;gap:.5rem;margin:.4rem 0}
.zoom button{font:inherit;padding:.25rem .8rem}
pre{white-space:pre-wrap;overflow-x:auto;background:rgba(127,127,127,.08);padding:.5rem;border-radius:.3rem}
video{max-width:100%}
ul.report{padding-left:1.2rem}
.note{opacity:.8}
h1,dd,li,td,p{overflow-wrap:anywhere}
ol.turns{padding-left:1.2rem;max-height:24rem;overflow-y:auto}
ol.turns a[aria-current]{font-weight:700}
.jump input{width:5rem;font:inherit}
ul.games{list-style:none;padding:0;margin:0}
ul.games li{padding:.5rem 0;border-bottom:1px solid var(--line)}
ul.games .name{font-weight:600;margin-right:.6rem}
ul.games .meta{display:inline-flex;flex-wrap:wrap;gap:.1rem .8rem;font-size:.95rem}
ul.games .result{margin:.2rem 0 0;font-size:.95rem;opacity:.9}
nav.filters p{margin:.3rem 0;display:flex;flex-wrap:wrap;gap:.3rem .7rem}
nav.filters a[aria-current]{font-weight:700;color:inherit;text-decoration:none}
p.newer{padding:.4rem .7rem;border:1px solid var(--accent);border-radius:.4rem}
.frames figure{margin:.5rem 0}
.frames img{display:block;max-width:100%;max-height:80vh;width:auto;height:auto;border:1px solid var(--line)}
.framebar{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.framebar button{font:inherit;padding:.25rem .8rem}
ol.chapters{padding-left:1.2rem;max-height:24rem;overflow-y:auto}
ol.chapters a[aria-current]{font-weight:700}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
"""

SCRIPT = """
(function(){
function localTimes(root){
 root.querySelectorAll('time[datetime]').forEach(function(t){
  var d=new Date(t.getAttribute('datetime'));
  if(!isNaN(d)){t.dataset.local=d.toLocaleString(undefined,{dateStyle:'medium',timeStyle:'short'});t.textContent=t.dataset.local;}
 });
 countdown();
}
function left(ms){
 var s=Math.floor(ms/1000),d=Math.floor(s/86400),h=Math.floor(s%86400/3600),m=Math.floor(s%3600/60);
 if(d>0){return d+' d '+h+' h';}
 if(h>0){return h+' h '+m+' min';}
 if(m>0){return m+' min '+(s%60)+' s';}
 return (s%60)+' s';
}
function countdown(){
 // A deadline says how long is left, each second (the page itself says only when).
 document.querySelectorAll('time[data-countdown]').forEach(function(t){
  var ms=new Date(t.getAttribute('datetime'))-Date.now();
  t.textContent=(t.dataset.local||t.textContent)+(ms>0?' ('+left(ms)+' left)':' (closing)');
 });
}
setInterval(countdown,1000);
function span(t){
 var a=t[0],b=t[1];
 return {d:Math.hypot(a.clientX-b.clientX,a.clientY-b.clientY)||1,x:(a.clientX+b.clientX)/2,y:(a.clientY+b.clientY)/2};
}
function gestures(el,zoom){
 // Two fingers pinch, one double tap (or double click) zooms at that point.
 var start=null;
 el.addEventListener('touchstart',function(e){if(e.touches.length===2){start=span(e.touches);start.last=null;}},{passive:true});
 el.addEventListener('touchmove',function(e){if(start&&e.touches.length===2){e.preventDefault();start.last=span(e.touches);}},{passive:false});
 el.addEventListener('touchend',function(){if(start&&start.last){zoom(start.last.d/start.d,start.last.x,start.last.y);}start=null;});
 el.addEventListener('dblclick',function(e){e.preventDefault();zoom(2,e.clientX,e.clientY);});
}
function seen(el){
 // The middle of what is in sight of el (on a phone, of the part on screen).
 var r=el.getBoundingClientRect();
 var l=Math.max(r.left,0),t=Math.max(r.top,0),rr=Math.min(r.right,window.innerWidth),b=Math.min(r.bottom,window.innerHeight);
 return [(l+rr)/2,(t+b)/2];
}
function zoomable(root){
 root.querySelectorAll('[data-zoom]').forEach(function(box){
  var img=box.querySelector('img');var bar=box.previousElementSibling;
  if(!img||!bar||bar.dataset.ready){return;}
  bar.dataset.ready='1';bar.hidden=false;var scale=0;
  function natural(){return img.naturalWidth||+img.getAttribute('width');}
  function apply(){
   if(scale===0){box.classList.remove('zoomed');img.style.width='';box.style.width=box.style.height='';return;}
   if(!box.classList.contains('zoomed')){
    // The frame keeps its size: the picture grows inside it, about the point zoomed.
    var r=box.getBoundingClientRect();box.style.width=r.width+'px';box.style.height=r.height+'px';
   }
   box.classList.add('zoomed');img.style.width=Math.round(natural()*scale)+'px';
  }
  var fit=1;
  function fitted(){if(scale===0){fit=img.getBoundingClientRect().width/natural();}return fit;}
  function zoomAt(next,x,y){
   // The point of the picture at (x, y) on screen stays there.
   var f=fitted(),before=img.getBoundingClientRect();
   var fx=(x-before.left)/before.width,fy=(y-before.top)/before.height;
   scale=next<=f*1.01?0:Math.min(4,next);apply();
   var after=img.getBoundingClientRect();
   box.scrollLeft+=after.left+fx*after.width-x;box.scrollTop+=after.top+fy*after.height-y;
  }
  box.zoomState=function(){return scale===0?null:{scale:scale,left:box.scrollLeft,top:box.scrollTop};};
  if(kept&&kept.scale){scale=kept.scale;apply();box.scrollLeft=kept.left;box.scrollTop=kept.top;}
  bar.querySelector('[data-in]').addEventListener('click',function(){
   var c=seen(box);zoomAt((scale||fitted())*1.5,c[0],c[1]);
  });
  bar.querySelector('[data-out]').addEventListener('click',function(){
   var c=seen(box);zoomAt((scale||fitted())/1.5,c[0],c[1]);
  });
  bar.querySelector('[data-fit]').addEventListener('click',function(){scale=0;apply();});
  box.style.touchAction='pan-x pan-y';
  gestures(box,function(ratio,x,y){if(ratio>1.1||ratio<0.9){zoomAt((scale||fitted())*ratio,x,y);}});
 });
}
var kept=null,overviewOpen=true;
function overview(wrap,bar,view,src,rows,cols,size,cells,level){
 // The whole board drawn small (its tiles at the smallest scale: the same view as the
 // tiles, public on the public page), the part in view outlined; a click or drag there
 // moves the view. For pointers only: to a screen reader it is a picture, and the keys
 // pan the view itself. A button in the zoom bar folds it away (a phone's screen is small).
 var s=0,filled=false;
 var mini=document.createElement('div');mini.className='minimap';mini.hidden=true;
 mini.setAttribute('role','img');
 mini.setAttribute('aria-label','Overview of the whole board, the part in view outlined');
 var frame=document.createElement('div');frame.className='inview';mini.appendChild(frame);
 function measure(){
  // 160 pixels across, 96 on a phone; measured again when the window changes (a phone
  // turned, a window narrowed), the small tiles then placed again at the new size.
  var most=window.innerWidth<600?96:160,next=most/Math.max(rows,cols);
  if(next===s){return;}s=next;
  mini.style.width=Math.round(cols*s)+'px';mini.style.height=Math.round(rows*s)+'px';
  if(filled){filled=false;mini.querySelectorAll('img').forEach(function(t){t.remove();});}
 }
 measure();
 wrap.appendChild(mini);
 var toggle=document.createElement('button');toggle.type='button';toggle.hidden=true;
 toggle.textContent='Overview';bar.appendChild(toggle);
 function fill(){
  if(filled){return;}filled=true;var c=cells[0],step=size*s/c;
  for(var y=0;y*size<rows*c;y++){for(var x=0;x*size<cols*c;x++){
   var t=new Image();t.alt='';t.decoding='async';
   t.style.left=(x*step)+'px';t.style.top=(y*step)+'px';t.style.width=t.style.height=step+'px';
   t.src=src+'/0/'+x+'/'+y+'.png';mini.insertBefore(t,frame);
  }}
 }
 function outline(){
  var l=level();if(l<0||mini.hidden){return;}
  var w=cols*cells[l],h=rows*cells[l],mw=cols*s,mh=rows*s;
  frame.style.left=(view.scrollLeft/w*mw)+'px';frame.style.top=(view.scrollTop/h*mh)+'px';
  frame.style.width=(Math.min(1,view.clientWidth/w)*mw)+'px';
  frame.style.height=(Math.min(1,view.clientHeight/h)*mh)+'px';
 }
 function update(){
  var on=level()>=0;toggle.hidden=!on;toggle.setAttribute('aria-pressed',String(overviewOpen));
  mini.hidden=!on||!overviewOpen;if(!mini.hidden){fill();outline();}
 }
 function moveTo(e){
  var l=level();if(l<0){return;}
  var r=mini.getBoundingClientRect();
  view.scrollLeft=(e.clientX-r.left)/r.width*cols*cells[l]-view.clientWidth/2;
  view.scrollTop=(e.clientY-r.top)/r.height*rows*cells[l]-view.clientHeight/2;
 }
 mini.addEventListener('pointerdown',function(e){
  e.preventDefault();if(mini.setPointerCapture){mini.setPointerCapture(e.pointerId);}moveTo(e);
 });
 mini.addEventListener('pointermove',function(e){if(e.buttons){moveTo(e);}});
 toggle.addEventListener('click',function(){overviewOpen=!overviewOpen;update();});
 window.addEventListener('resize',function(){measure();update();});
 return {update:update,outline:outline};
}
function tiled(root){
 root.querySelectorAll('[data-tiles]').forEach(function(box){
  var bar=box.previousElementSibling;
  if(!bar||bar.dataset.ready){return;}
  bar.dataset.ready='1';bar.hidden=false;
  var src=box.dataset.tiles,rows=+box.dataset.rows,cols=+box.dataset.cols,size=+box.dataset.tile;
  var cells=box.dataset.cells.split(',').map(Number);
  var view=document.createElement('div');view.className='tiles';view.hidden=true;
  var plane=document.createElement('div');plane.className='plane';view.appendChild(plane);
  var wrap=document.createElement('div');wrap.className='tiled';wrap.appendChild(view);
  box.parentNode.insertBefore(wrap,box.nextSibling);
  var level=-1,shown={};
  var mini=overview(wrap,bar,view,src,rows,cols,size,cells,function(){return level;});
  function place(){
   if(level<0){return;}
   var c=cells[level],w=view.clientWidth,h=view.clientHeight;
   var lastX=Math.ceil(cols*c/size)-1,lastY=Math.ceil(rows*c/size)-1;
   var x1=Math.min(lastX,Math.floor((view.scrollLeft+w-1)/size));
   var y1=Math.min(lastY,Math.floor((view.scrollTop+h-1)/size));
   for(var y=Math.floor(view.scrollTop/size);y<=y1;y++){
    for(var x=Math.floor(view.scrollLeft/size);x<=x1;x++){
     var key=x+'/'+y;if(shown[key]){continue;}shown[key]=1;
     var t=new Image(size,size);t.alt='';t.className='tile';t.decoding='async';
     t.style.left=(x*size)+'px';t.style.top=(y*size)+'px';
     t.src=src+'/'+level+'/'+x+'/'+y+'.png';plane.appendChild(t);
    }
   }
  }
  function centre(){
   if(level<0){return [0.5,0.5];}
   var c=cells[level];
   return [(view.scrollLeft+view.clientWidth/2)/(cols*c),(view.scrollTop+view.clientHeight/2)/(rows*c)];
  }
  function show(next,at,px,py){
   // The board's point at (fractions) lands at (px, py) of the view: its middle unless said.
   if(next<0){level=-1;view.hidden=true;box.hidden=false;mini.update();return;}
   var c=cells[next];level=next;shown={};plane.textContent='';
   plane.style.width=(cols*c)+'px';plane.style.height=(rows*c)+'px';
   box.hidden=true;view.hidden=false;
   var x=px===undefined?view.clientWidth/2:px,y=py===undefined?view.clientHeight/2:py;
   view.scrollLeft=at[0]*cols*c-x;view.scrollTop=at[1]*rows*c-y;
   place();mini.update();
  }
  function zoomAt(ratio,x,y){
   if(ratio<1.1&&ratio>0.9){return;}
   if(level<0){
    if(ratio<1){return;}
    var r=box.querySelector('img').getBoundingClientRect(),b=box.getBoundingClientRect();
    show(first(),[(x-r.left)/r.width,(y-r.top)/r.height],x-b.left,y-b.top);return;
   }
   var v=view.getBoundingClientRect(),c=cells[level];
   var at=[(view.scrollLeft+x-v.left)/(cols*c),(view.scrollTop+y-v.top)/(rows*c)];
   var next=ratio>1?Math.min(level+1,cells.length-1):(level<=first()?-1:level-1);
   show(next,at,x-v.left,y-v.top);
  }
  function goTo(spots){
   // The middle of the cells named (each "row,column"), close enough to read them.
   var rs=[],cs=[];
   spots.split(' ').forEach(function(s){var p=s.split(',');rs.push(+p[0]);cs.push(+p[1]);});
   function mid(a){a.sort(function(x,y){return x-y;});return a[Math.floor(a.length/2)];}
   var near=cells.length-1;for(var i=0;i<cells.length;i++){if(cells[i]>=16){near=i;break;}}
   show(near,[(mid(cs)+0.5)/cols,(mid(rs)+0.5)/rows]);
  }
  bar.querySelectorAll('[data-goto]').forEach(function(b){
   b.hidden=false;b.addEventListener('click',function(){goTo(b.dataset.goto);});
  });
  box.style.touchAction='pan-x pan-y';view.style.touchAction='pan-x pan-y';
  gestures(box,zoomAt);gestures(view,zoomAt);
  function first(){
   var width=(box.hidden?view:box).clientWidth;
   for(var i=0;i<cells.length;i++){if(cols*cells[i]>=width){return i;}}
   return cells.length-1;
  }
  box.zoomState=function(){return level<0?null:{level:level,at:centre()};};
  bar.querySelector('[data-in]').addEventListener('click',function(){
   show(level<0?first():Math.min(level+1,cells.length-1),centre());
  });
  bar.querySelector('[data-out]').addEventListener('click',function(){
   show(level<=first()?-1:level-1,centre());
  });
  bar.querySelector('[data-fit]').addEventListener('click',function(){show(-1);});
  view.addEventListener('scroll',function(){window.requestAnimationFrame(function(){place();mini.outline();});},{passive:true});
  if(kept){show(Math.min(kept.level,cells.length-1),kept.at);}
 });
}
function focusKey(root,el){
 if(!el||!root.contains(el)||el===root){return null;}
 var all=Array.prototype.slice.call(root.querySelectorAll('a,button,summary,[tabindex]'));
 return {tag:el.tagName,text:el.textContent,href:el.getAttribute('href'),index:all.indexOf(el)};
}
function refocus(root,key){
 if(!key){return;}
 var all=Array.prototype.slice.call(root.querySelectorAll('a,button,summary,[tabindex]'));
 var same=all.filter(function(e){return e.tagName===key.tag&&e.textContent===key.text&&e.getAttribute('href')===key.href;});
 var el=same[0]||all[key.index];if(el){el.focus({preventScroll:true});}
}
function refresh(wanted,tries){
 fetch(location.href,{cache:'no-store'}).then(function(r){return r.ok?r.text():null;}).then(function(text){
  if(!text){return;}
  var doc=new DOMParser().parseFromString(text,'text/html');
  var fresh=doc.querySelector('main');var old=document.querySelector('main');
  if(fresh&&old){
   // What the reader had (zoom, scroll, open sections, focus) is kept across the update.
   var box=old.querySelector('[data-tiles],[data-zoom]');kept=box&&box.zoomState?box.zoomState():null;
   var x=window.scrollX,y=window.scrollY,opened=[];
   old.querySelectorAll('details').forEach(function(d,i){if(d.open){opened.push(i);}});
   var focused=focusKey(old,document.activeElement);
   old.replaceWith(fresh);
   fresh.querySelectorAll('details').forEach(function(d,i){if(opened.indexOf(i)>=0){d.open=true;}});
   localTimes(fresh);zoomable(fresh);tiled(fresh);steps(fresh);kept=null;
   refocus(fresh,focused);window.scrollTo(x,y);
   var said=document.querySelector('[data-announce]'),now=fresh.querySelector('nav.steps strong');
   if(said&&now&&doc.body.dataset.version!==document.body.dataset.version){said.textContent='Updated: '+now.textContent;}
   document.body.dataset.version=doc.body.dataset.version||'';}
  if(doc.body.dataset.version!==wanted&&tries>0){setTimeout(function(){refresh(wanted,tries-1);},500);}
 });
}
function steps(root){
 var jump=root.querySelector('[data-jump]');
 if(jump){jump.parentNode.hidden=false;jump.addEventListener('keydown',function(e){
  if(e.key==='Enter'&&jump.value!==''){location.href=jump.dataset.jump+Math.round(+jump.value);}
 });}
}
function frames(root){
 // The replay a frame at a time: the chapters' links are the frames, shown in place.
 root.querySelectorAll('[data-frames]').forEach(function(box){
  var bar=box.querySelector('.framebar'),fig=box.querySelector('figure');
  if(!bar||bar.dataset.ready){return;}
  bar.dataset.ready='1';bar.hidden=false;fig.hidden=false;
  var links=Array.prototype.slice.call(box.querySelectorAll('a[data-frame]'));
  var img=fig.querySelector('img'),caption=fig.querySelector('figcaption'),at=0;
  function show(i){
   at=Math.max(0,Math.min(links.length-1,i));var a=links[at];
   var turn=a.closest('li').querySelector('a').textContent;
   var said=a.textContent===turn?turn:turn+', '+a.textContent;
   img.src=a.getAttribute('href');img.alt=said;caption.textContent=said;
   bar.querySelector('[data-frame-at]').textContent=(at+1)+' of '+links.length;
   bar.querySelector('[data-frame-prev]').disabled=at===0;
   bar.querySelector('[data-frame-next]').disabled=at===links.length-1;
   links.forEach(function(l,j){if(j===at){l.setAttribute('aria-current','step');}else{l.removeAttribute('aria-current');}});
  }
  links.forEach(function(a,i){a.addEventListener('click',function(e){e.preventDefault();show(i);});});
  bar.querySelector('[data-frame-prev]').addEventListener('click',function(){show(at-1);});
  bar.querySelector('[data-frame-next]').addEventListener('click',function(){show(at+1);});
  show(0);
 });
}
document.addEventListener('keydown',function(e){
 // Left and right arrows step through the turns, unless typing or zoomed into a board.
 if(e.altKey||e.ctrlKey||e.metaKey||e.shiftKey||(e.key!=='ArrowLeft'&&e.key!=='ArrowRight')){return;}
 var t=e.target;if(t&&(t.tagName==='INPUT'||t.tagName==='TEXTAREA'||t.isContentEditable)){return;}
 if(t&&t.closest&&t.closest('.board,.tiles')){return;}
 var a=document.querySelector('nav.steps a[rel='+(e.key==='ArrowLeft'?'prev':'next')+']');
 if(a){location.href=a.href;}
});
localTimes(document);zoomable(document);tiled(document);steps(document);frames(document);
var live=document.body.dataset.live;
function listen(){
 var source=new EventSource(live);
 source.addEventListener('change',function(e){if(e.data!==document.body.dataset.version){refresh(e.data,20);}});
 source.onerror=function(){if(source.readyState===2){setTimeout(listen,15000+Math.random()*15000);}};
}
if(live&&window.EventSource){listen();}
})();
"""


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


CONTENT_SECURITY_POLICY = (
    "default-src 'none'; "
    f"script-src {_csp_hash(SCRIPT)}; "
    f"style-src {_csp_hash(STYLE)}; "
    "img-src 'self'; media-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Only this page's own style and script (by hash), and images, video and live updates
from the same site; nothing may frame the page."""


def iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def when(timestamp: float | None, *, countdown: bool = False) -> str:
    """A moment as a ``<time>``: UTC in the HTML, the reader's zone once the script runs;
    a deadline (``countdown``) also says how long is left, counting down each second."""
    if timestamp is None:
        return "—"
    moment = datetime.fromtimestamp(timestamp, UTC)
    counted = " data-countdown" if countdown else ""
    return (
        f'<time datetime="{iso(timestamp)}"{counted}>{moment.strftime("%Y-%m-%d %H:%M")} UTC</time>'
    )


@dataclass(frozen=True)
class GameLine:
    """One game in the list of games."""

    number: int
    title: str
    kind: str
    where: str
    where_url: str
    phase: str
    turn: int
    players: int
    deadline: float | None
    result: str
    live: bool = False  # not finished: listed under "Live now"
    turn_word: str = "turn"  # the game's own word for a turn
    robots: int = 0  # of the players, the seats robots play


def _robots_among(count: int) -> str:
    """`` (2 robots)`` beside a game's players, where robots play some of its seats."""
    if not count:
        return ""
    return f" ({count} robot{'s' if count > 1 else ''})"


@dataclass(frozen=True)
class MapShown:
    src: str
    alt: str
    width: int
    height: int


@dataclass(frozen=True)
class TiledBoard:
    """A board also offered in tiles (:mod:`renderers.tiles`): ``src/LEVEL/X/Y.png``,
    ``cells[LEVEL]`` pixels a cell, ``tile`` pixels a side."""

    src: str
    rows: int
    cols: int
    tile: int
    cells: tuple[int, ...]


@dataclass(frozen=True)
class GamePage:
    """Everything one game's page shows (public, or one player's own)."""

    title: str
    kind: str
    where: str
    where_url: str
    phase: str
    turn: int
    deadlines: tuple[tuple[str, float], ...]
    paused: bool
    players: tuple[str, ...]
    result: str
    base: str  # the page's own path: /games/3, or a private link's
    turns: tuple[int, ...]  # every turn with a stored step, in order
    shown: int | None  # the turn shown (None: nothing stored yet)
    latest: bool  # the newest turn, without a turn in the address (it follows live)
    report: tuple[str, ...]  # what everyone was told of the turn shown
    picture: MapShown | None
    summary: str
    rules: str
    version: str  # changes whenever the game changes: live updates compare it
    replay_src: str = ""
    own_replay_src: str = ""  # a player's own page: their replay, the game as they saw it
    record_src: str = ""
    viewer: str = ""  # the player whose own page this is, "" for the public page
    notes: tuple[str, ...] = field(default_factory=tuple)
    tiled: TiledBoard | None = None  # the board in tiles too (a board too big for one picture)
    own_report: tuple[str, ...] = ()
    site_url: str = ""  # the page's public address ([web] base_url): previews' pictures
    # A board in tiles: the cells ("row,column" by spaces) the turn's report and the
    # player's own ships name, for the buttons that zoom there.
    shots_at: str = ""
    ships_at: str = ""
    turn_lines: tuple[str, ...] = ()  # each of ``turns``' line: its public report's first
    turn_word: str = "turn"  # the game's own word for a turn (U-Boat's ``round``)
    replay_poster: str = ""  # the picture a replay shows before it plays
    own_replay_poster: str = ""  # a player's page: what only they were told
    record_name: str = ""  # the file the record is saved as (``bst-game-12.json``)
    # (name, what is public of them: afloat or sunk, boat, crew, substitute) per player
    roster: tuple[tuple[str, tuple[str, ...]], ...] = ()
    options: str = ""  # the options it was opened with, as typed
    rooms: tuple[tuple[str, str], ...] = ()  # (room, link) of each room bridged to it
    join: str = ""  # in setup, what to say to join (``#bst join``); else ""
    # A finished game: every stored step (turn, step), its replay's frames, pictured
    # at ``frames_base``/map/T-S.png (the public pictures, or the player's own).
    frames: tuple[tuple[int, int], ...] = ()
    frames_base: str = ""


ROBOTS = "noindex, nofollow"
"""Every page, public ones too: they name chat users and what they played, for the
game's own community; a search engine's copy would outlive a renamed or left account
and add nothing a player wants. (Also sent as ``X-Robots-Tag`` with every answer.)"""


def document(title: str, body: str, *, attributes: str = "", head: str = "") -> bytes:
    robots = f'<meta name="robots" content="{ROBOTS}">'
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'{robots}<meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title>{head}<style>{STYLE}</style></head>"
        f'<body{attributes}><header><a href="/">Naval games</a></header>'
        f"{body}<script>{SCRIPT}</script></body></html>\n"
    ).encode()


def _where(where: str, url: str) -> str:
    return f'<a href="{escape(url)}">{escape(where)}</a>' if url else escape(where)


RESULT_LENGTH = 160
"""Characters of a game's result in the list at most (the game's page has it whole)."""

STATES = {"live": "Live", "finished": "Finished"}
"""The list's ``state`` filter: its values and their names."""


def list_address(page: int = 1, kind: str = "", state: str = "") -> str:
    """The list of games' address for a page and filter (``/`` for the first, unfiltered)."""
    asked = [("kind", kind), ("state", state), ("page", str(page) if page > 1 else "")]
    query = "&amp;".join(f"{name}={escape(value)}" for name, value in asked if value)
    return "/?" + query if query else "/"


def _list_nav(page: int, pages: int, kind: str, state: str) -> str:
    if pages <= 1:
        return ""
    newer = (
        f'<a href="{list_address(page - 1, kind, state)}" rel="prev">‹ Newer</a>'
        if page > 1
        else ""
    )
    older = (
        f'<a href="{list_address(page + 1, kind, state)}" rel="next">Older ›</a>'
        if page < pages
        else ""
    )
    return (
        f'<nav class="steps" aria-label="Pages">{newer}'
        f"<strong>Page {page} of {pages}</strong>{older}</nav>"
    )


def _filters(kinds: Sequence[str], kind: str, state: str) -> str:
    """Links choosing a kind of game and live or finished (plain links: no script)."""

    def choice(label: str, address: str, chosen: bool) -> str:
        current = ' aria-current="page"' if chosen else ""
        return f'<a href="{address}"{current}>{escape(label)}</a>'

    by_kind = [choice("Every game", list_address(1, "", state), not kind)]
    by_kind += [choice(k, list_address(1, k, state), k == kind) for k in kinds]
    by_state = [choice("Live and finished", list_address(1, kind, ""), not state)]
    by_state += [choice(name, list_address(1, kind, s), s == state) for s, name in STATES.items()]
    return (
        '<nav class="filters" aria-label="Filter the games">'
        f"<p>Kind: {' '.join(by_kind)}</p><p>Show: {' '.join(by_state)}</p></nav>"
    )


def _game_item(line: GameLine) -> str:
    result = line.result
    if len(result) > RESULT_LENGTH:
        result = result[: RESULT_LENGTH - 1].rstrip() + "…"
    facts = [escape(line.kind), escape(line.phase)]
    if line.phase != "setup" or line.turn:
        facts.append(f"{escape(line.turn_word.capitalize())} {line.turn}")
    players = f"{line.players} player{'s' if line.players != 1 else ''}"
    facts.append(players + _robots_among(line.robots))
    if line.live and line.deadline is not None:
        facts.append(f"next deadline {when(line.deadline, countdown=True)}")
    facts.append(_where(line.where, line.where_url))
    meta = "".join(f"<span>{fact}</span>" for fact in facts)
    said = f'<p class="result">{escape(result)}</p>' if result else ""
    return (
        f'<li><a class="name" href="/games/{line.number}">{escape(line.title)}</a>'
        f'<span class="meta">{meta}</span>{said}</li>'
    )


def games_list(
    lines: Sequence[GameLine],
    *,
    page: int = 1,
    pages: int = 1,
    kinds: Sequence[str] = (),
    kind: str = "",
    state: str = "",
    version: str = "",
) -> bytes:
    """A page of the list of games: the live ones under "Live now", then the finished,
    each game a few short lines (a phone's width holds them); filters and pages are
    links, and an open list follows games starting and ending live."""
    live = [line for line in lines if line.live]
    over = [line for line in lines if not line.live]
    sections = []
    if live:
        items = "".join(_game_item(line) for line in live)
        sections.append(f'<h2>Live now</h2><ul class="games">{items}</ul>')
    if over:
        items = "".join(_game_item(line) for line in over)
        sections.append(f'<h2>Finished</h2><ul class="games">{items}</ul>')
    if not lines:
        sections.append(
            '<p class="note">No game yet.</p>'
            if not (kind or state)
            else '<p class="note">No game here: <a href="/">every game</a>.</p>'
        )
    note = (
        '<p class="note">Games opened to everyone (<code>reach=all</code>); a game of a '
        "server or group shows to its players through their own links. "
        '<a href="/players">The players\' ratings</a>.</p>'
    )
    nav = _list_nav(page, pages, kind, state)
    filters = _filters(kinds, kind, state) if kinds else ""
    attributes = f' data-version="{escape(version)}" data-live="/live"' if version else ""
    return document(
        "Games",
        f"<main><h1>Games</h1>{note}{filters}{''.join(sections)}{nav}</main>",
        attributes=attributes,
    )


def _steps_nav(page: GamePage) -> str:
    if page.shown is None or not page.turns:
        return ""
    index = page.turns.index(page.shown)

    def link(label: str, target: int | None, rel: str) -> str:
        if target is None or target == page.shown:
            return f'<span class="off">{label}</span>'
        return f'<a href="{page.base}/turn/{target}" rel="{rel}">{label}</a>'

    first, last = page.turns[0], page.turns[-1]
    previous = page.turns[index - 1] if index > 0 else None
    following = page.turns[index + 1] if index + 1 < len(page.turns) else None
    word = escape(page.turn_word)
    jump = (
        f'<label class="jump" hidden>Go to {word} <input type="number" inputmode="numeric" '
        f'min="{first}" max="{last}" data-jump="{escape(page.base)}/turn/" size="4"></label>'
    )
    return (
        '<nav class="steps" aria-label="Turns">'
        f"{link('« First', first, 'first')}{link('‹ Previous', previous, 'prev')}"
        f'<strong aria-current="page">{_turn(page, page.shown)}</strong>'
        f"{link('Next ›', following, 'next')}{link('Last »', last, 'last')}{jump}"
        "</nav>"
    )


def _turn_list(page: GamePage) -> str:
    """Every turn, a link each with its one line; the one shown is the current one."""
    if not page.turns or page.shown is None:
        return ""
    items = []
    for number, line in zip(page.turns, page.turn_lines or ("",) * len(page.turns), strict=False):
        said = f" — {escape(line)}" if line else ""
        if number == page.shown:
            items.append(
                f'<li><a aria-current="page" href="{escape(page.base)}/turn/{number}">'
                f"{_turn(page, number)}</a>{said}</li>"
            )
        else:
            items.append(
                f'<li><a href="{escape(page.base)}/turn/{number}">'
                f"{_turn(page, number)}</a>{said}</li>"
            )
    word = escape(page.turn_word)
    return (
        f'<details class="turns"><summary>Every {word} ({len(page.turns)})</summary>'
        f'<ol class="turns">{"".join(items)}</ol></details>'
    )


def _picture(
    picture: MapShown | None,
    tiled: TiledBoard | None = None,
    goto: Sequence[tuple[str, str]] = (),
) -> str:
    if picture is None:
        return '<p class="note">The map appears once the game has begun.</p>'
    # A board in tiles zooms into them (the script loads those in sight); any other
    # zooms its one picture. Without the script, the picture alone.
    zoom = "data-zoom"
    if tiled is not None:
        zoom = (
            f'data-tiles="{escape(tiled.src)}" data-rows="{tiled.rows}" '
            f'data-cols="{tiled.cols}" data-tile="{tiled.tile}" '
            f'data-cells="{",".join(str(cell) for cell in tiled.cells)}"'
        )
    return (
        '<div class="zoom" hidden><button type="button" data-out>−</button>'
        '<button type="button" data-fit>Fit</button>'
        '<button type="button" data-in>+</button>'
        + "".join(
            f'<button type="button" data-goto="{escape(spots)}" hidden>{escape(label)}</button>'
            for label, spots in goto
            if spots and tiled is not None
        )
        + "</div>"
        f'<div class="board" {zoom}><img src="{escape(picture.src)}" '
        f'alt="{escape(picture.alt)}" width="{picture.width}" height="{picture.height}"></div>'
        f'<p><a href="{escape(picture.src)}">Open the full picture</a></p>'
    )


def _frames(page: GamePage) -> str:
    """The replay a frame at a time, from the stored pictures: a chapter per turn, each
    a link to its pictures (what a reader without the script follows); the script
    shows them in place, with previous and next."""
    if not page.frames:
        return ""
    by_turn: dict[int, list[tuple[int, int]]] = {}
    for index, (number, step) in enumerate(page.frames):
        by_turn.setdefault(number, []).append((index, step))
    base = escape(page.frames_base)
    chapters = []
    for number, steps in by_turn.items():
        first, _ = steps[0]
        links = f'<a href="{base}/map/{number}-{steps[0][1]}.png" data-frame="{first}">'
        links += f"{_turn(page, number)}</a>"
        links += "".join(
            f' <a href="{base}/map/{number}-{step}.png" data-frame="{index}">step {step}</a>'
            for index, step in steps[1:]
        )
        chapters.append(f"<li>{links}</li>")
    number, step = page.frames[0]
    count = len(page.frames)
    return (
        f'<section class="frames" data-frames aria-label="The replay, {page.turn_word} by '
        f'{page.turn_word}"><h2>Step through</h2>'
        '<div class="framebar" hidden><button type="button" data-frame-prev>‹ Previous</button>'
        f'<span data-frame-at aria-live="polite">1 of {count}</span>'
        '<button type="button" data-frame-next>Next ›</button></div>'
        f'<figure hidden><img src="{base}/map/{number}-{step}.png" alt="{_turn(page, number)}" '
        'loading="lazy"><figcaption></figcaption></figure>'
        f'<details class="chapters"><summary>Chapters: every {escape(page.turn_word)} '
        f'({len(by_turn)})</summary><ol class="chapters">{"".join(chapters)}</ol></details>'
        "</section>"
    )


def _video(src: str, poster: str) -> str:
    """A replay's attributes: played inline (an iPhone would go full screen), its poster
    shown until it plays, nothing of it loaded before."""
    shown = f' poster="{escape(poster)}"' if poster else ""
    return f'controls playsinline preload="none"{shown} src="{escape(src)}"'


def _turn(page: GamePage, number: int) -> str:
    """``Turn 3`` (``Round 3``): a turn named in the game's own word."""
    return f"{escape(page.turn_word.capitalize())} {number}"


def page_title(page: GamePage) -> str:
    """The page's ``<title>``: the game, and the turn a turn's own address shows."""
    if page.latest or page.shown is None:
        return page.title
    return f"{page.title}, {page.turn_word} {page.shown}"


DESCRIPTION = 200
"""Characters of a preview's description at most (what an unfurled link shows)."""


def _preview(page: GamePage) -> str:
    """A public page's link preview (Open Graph, and X's card): its title, the turn's
    public report, and that turn's public map by its absolute address (only with the
    site's public address configured: a preview's picture must be absolute)."""
    word = page.turn_word
    described = " ".join(page.report) or (
        f"{page.kind}, {page.phase}, {word} {page.turn}: {', '.join(page.players)}."
    )
    if len(described) > DESCRIPTION:
        described = described[: DESCRIPTION - 1].rstrip() + "…"
    site = page.site_url.rstrip("/")
    image = page.picture is not None and bool(site)
    tags = [
        ("og:type", "website"),
        ("og:site_name", "Naval games"),
        ("og:title", page_title(page)),
        ("og:description", described),
    ]
    if site:
        path = page.base if page.latest else f"{page.base}/turn/{page.shown}"
        tags.append(("og:url", site + path))
    if image and page.picture is not None:
        tags += [
            ("og:image", site + page.picture.src),
            ("og:image:width", str(page.picture.width)),
            ("og:image:height", str(page.picture.height)),
            ("og:image:alt", page.picture.alt[: DESCRIPTION * 2]),
        ]
    card = "summary_large_image" if image else "summary"
    return (
        "".join(f'<meta property="{name}" content="{escape(value)}">' for name, value in tags)
        + f'<meta name="twitter:card" content="{card}">'
    )


def _how_to_join(page: GamePage) -> str:
    """A game in setup: what to say, and where, to join it."""
    if not page.join:
        return ""
    where = _where(page.where, page.where_url)
    also = " or in a room it is also played in" if page.rooms else ""
    return (
        f'<p class="join">Open to join: say <code>{escape(page.join)}</code> in '
        f"{where}{also}, before the game begins.</p>"
    )


def _newer(page: GamePage) -> str:
    """On an old turn's page, that a newer turn exists, and a link to the game now."""
    if page.latest or page.shown is None or not page.turns or page.shown >= page.turns[-1]:
        return ""
    newest = _turn(page, page.turns[-1])
    return (
        f'<p class="newer">A newer {escape(page.turn_word)} exists: '
        f'<a href="{escape(page.base)}">{newest}, the game now</a>.</p>'
    )


def game_page(page: GamePage) -> bytes:
    facts = [
        ("Game", escape(page.kind)),
        ("Where", _where(page.where, page.where_url)),
        ("Phase", escape(page.phase) + (" (paused)" if page.paused else "")),
    ]
    if page.latest:
        # The game now: the turn open (or, once over, the last), and its deadlines.
        facts.append((escape(page.turn_word.capitalize()), str(page.turn)))
        for label, deadline in page.deadlines:
            facts.append((escape(label) + " closes", when(deadline, countdown=not page.paused)))
    else:
        # A past turn's page speaks of that turn alone; the game now is a link away.
        facts.append((escape(page.turn_word.capitalize()), str(page.shown)))
        facts.append(("Now", f'<a href="{escape(page.base)}">the game as it is now</a>'))
    if page.result:
        facts.append(("Result", escape(page.result)))
    if page.options:
        facts.append(("Options", f"<code>{escape(page.options)}</code>"))
    if page.rooms:
        rooms = ", ".join(_where(room, url) for room, url in page.rooms)
        facts.append(("Also played in", rooms))
    if page.viewer:
        facts.append(("Your view", escape(page.viewer)))
    facts_html = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    roster = page.roster or tuple((name, ()) for name in page.players)
    players = "".join(
        f"<li>{escape(name)}" + (f" — {escape(', '.join(said))}" if said else "") + "</li>"
        for name, said in roster
    )
    report = "".join(f"<li>{escape(line)}</li>" for line in page.report)
    own = "".join(f"<li>{escape(line)}</li>" for line in page.own_report)
    heading = "Now" if page.latest else _turn(page, page.shown or 0)
    parts = [
        f"<h1>{escape(page.title)}</h1>",
        _newer(page),
        f'<dl class="facts">{facts_html}</dl>',
        _how_to_join(page),
        *(f'<p class="note">{escape(note)}</p>' for note in page.notes),
        f"<h2>{heading}</h2>",
        _steps_nav(page),
        _picture(
            page.picture,
            page.tiled,
            (("Go to the last shots", page.shots_at), ("Go to my ships", page.ships_at)),
        ),
        f'<ul class="report">{report}</ul>' if report else "",
        f'<h3>Only you</h3><ul class="report own">{own}</ul>' if own else "",
        _turn_list(page),
        ("<h3>What you see</h3>" if page.viewer and page.summary else "")
        + (f"<pre>{escape(page.summary)}</pre>" if page.summary else ""),
    ]
    if page.own_replay_src:
        parts.append(
            '<h2>Your replay</h2><p class="note">The game as you saw it: your own board '
            "after every move.</p>"
            f"<video {_video(page.own_replay_src, page.own_replay_poster)}>"
            f'<a href="{escape(page.own_replay_src)}">Your replay (MP4)</a></video>'
        )
    if page.replay_src:
        parts.append(
            f"<h2>Replay</h2><video {_video(page.replay_src, page.replay_poster)}>"
            f'<a href="{escape(page.replay_src)}">The replay (MP4)</a></video>'
        )
    parts.append(_frames(page))
    if page.record_src:
        saved = f' download="{escape(page.record_name)}"' if page.record_name else ""
        parts.append(
            f'<p><a href="{escape(page.record_src)}"{saved}>The full record (JSON)</a></p>'
        )
    parts += [
        f'<h2>Players</h2><ul class="players">{players}</ul>' if players else "",
        f"<details><summary>Rules</summary><pre>{escape(page.rules)}</pre></details>",
    ]
    # The game now follows live updates, and so does its newest turn's own address:
    # once a newer turn comes, that page says so.
    newest = page.latest or (bool(page.turns) and page.shown == page.turns[-1])
    live = f"{page.base}/live" if newest and page.phase != GamePhase.FINISHED else ""
    attributes = f' data-version="{escape(page.version)}"'
    if live:
        attributes += f' data-live="{escape(live)}"'
    # Outside <main>, which a live update replaces: screen readers hear the new turn.
    announce = '<div class="sr" role="status" aria-live="polite" data-announce></div>'
    return document(
        page_title(page),
        f"<main>{''.join(parts)}</main>{announce}",
        attributes=attributes,
        head="" if page.viewer else _preview(page),
    )


def not_found(what: str = "Nothing here.") -> bytes:
    return document("Not found", f"<main><h1>Not found</h1><p>{escape(what)}</p></main>")
