#!/usr/bin/env python3
# Makes the references of Tests/.../JPEGDamagedFileTests.swift: damages copies of suite files
# (cuts, restart markers replaced, removed or swapped, flipped scan bytes), decodes each with
# libjpeg-turbo 2.1.5's `djpeg -dct int` at 1/1, 1/2, 1/4, 1/8 (portable C code:
# JSIMD_FORCENONE=1; it also says whether the SIMD build agrees), and prints per case the
# damage, whether djpeg succeeded, and (width, height, FNV-1a 64 of the RGBA8 pixels, exit code,
# first message, SIMD agrees) per scale. Needs `apt-get install libjpeg-turbo-progs`.
# Usage: python3 Scripts/jpeg-damaged-references.py [SUITE_DIR [SUBSTRING]] (only the cases whose
# Swift expression contains SUBSTRING).
import sys
import subprocess, os
S=(sys.argv[1] if len(sys.argv) > 1 else 'Tests/WeakImageStoreTests/Fixtures/jpegsuite').rstrip('/') + '/'
ONLY=sys.argv[2] if len(sys.argv) > 2 else ''
def fnv(b):
    h=0xcbf29ce484222325
    for x in b:
        h^=x; h=(h*0x100000001b3)&0xFFFFFFFFFFFFFFFF
    return h
def rst_positions(d):
    sos=d.find(b'\xff\xda')
    return [i for i in range(sos,len(d)-1) if d[i]==0xff and 0xd0<=d[i+1]<=0xd7]
cases=[]
def trunc(f,frac):
    d=open(S+f,'rb').read(); n=int(len(d)*frac)
    cases.append((f'truncate("{f}", at: {n})', d[:n], f'{f} cut at {n} of {len(d)} bytes'))
for f in ['rose_q50.jpg','rose_gray.jpg','rose_422.jpg','photo640_q85.jpg','rose_restart_7b.jpg']:
    for frac in (0.2,0.5,0.85): trunc(f,frac)
# two bytes into the scan data: a small frame with almost no data still decodes
d=open(S+'rose_q50.jpg','rb').read(); sos=d.find(b'\xff\xda'); n=sos+2+(d[sos+2]<<8|d[sos+3])+2
cases.append((f'truncate("rose_q50.jpg", at: {n})', d[:n], 'cut two bytes into the scan data'))
trunc('rose_seq_noninterleaved.jpg',0.5)
trunc('rose_seq_noninterleaved.jpg',0.9)
# cut exactly at a restart marker, and right after one
d=open(S+'rose_restart_1row.jpg','rb').read(); r=rst_positions(d)
cases.append((f'truncate("rose_restart_1row.jpg", at: {r[3]})', d[:r[3]], 'cut just before RST3'))
cases.append((f'truncate("rose_restart_1row.jpg", at: {r[3]+2})', d[:r[3]+2], 'cut just after RST3'))
def setbyte(f,off,val,why):
    d=bytearray(open(S+f,'rb').read()); d[off]=val
    cases.append((f'replace("{f}", at: {off}, with: 0x{val:02X})', bytes(d), why))
def delete(f,off,n,why):
    d=open(S+f,'rb').read()
    cases.append((f'delete("{f}", at: {off}, count: {n})', d[:off]+d[off+n:], why))
for f in ['rose_restart_7b.jpg','rose_restart_1row.jpg','rose_prog_restart.jpg']:
    d=open(S+f,'rb').read(); r=rst_positions(d)
    k=len(r)//2; p=r[k]+1; code=d[p]-0xD0
    for delta,why in [(1,'next'),(2,'next but one'),(3,'three ahead'),(7,'previous'),(6,'previous but one')]:
        setbyte(f,p,0xD0+(code+delta)%8,f'RST{code} replaced by the {why} one')
    setbyte(f,p,0xC4,f'RST{code} replaced by DHT')
    setbyte(f,p,0x02,f'RST{code} replaced by reserved marker 02')
    delete(f,r[k],2,f'RST{code} missing')
    # swap two consecutive restart markers
    d2=bytearray(d); d2[r[k]+1],d2[r[k+1]+1]=d2[r[k+1]+1],d2[r[k]+1]
    cases.append((f'swap("{f}", {r[k]+1}, {r[k+1]+1})', bytes(d2), f'RST{code} and the next swapped'))
for f in ['rose_q50.jpg','photo640_q85.jpg','rose_restart_7b.jpg']:
    d=open(S+f,'rb').read(); sos=d.find(b'\xff\xda')
    for frac in (0.3,0.6):
        off=sos+int((len(d)-sos)*frac)
        if d[off] in (0xff,0x00) or d[off-1]==0xff: off+=3
        setbyte(f,off,d[off]^0x5A,f'byte {off} of the scan data flipped')
# flipped scan bytes that make an invalid Huffman code (djpeg: "bad Huffman code")
for f,off,val in [('rose_q50.jpg',3518,0x22),('photo640_q85.jpg',17857,0x18),('photo640_q85.jpg',18295,0xBF),
                  ('rose_restart_7b.jpg',5315,0x1B),('rose_gray.jpg',3614,0x55),('rose_prog_420.jpg',344,0x0C),
                  ('rose_prog_420.jpg',474,0xE7)]:
    setbyte(f,off,val,f'byte {off} of the scan data changed into an invalid code')
# progressive, cut inside its last scan: every scan started, so libjpeg does not smooth
d=open(S+'rose_prog_420.jpg','rb').read()
cases.append(('truncate("rose_prog_420.jpg", at: 4835)', d[:4835], 'cut inside the last scan'))
# An AC symbol of the DHT changed into 0x0F (run 0, size 15): 15-bit coefficients whose
# dequantized sums overflow 32 bits in the 8x8 column pass, where libjpeg's JLONG does not.
for f,off in [('rose_q50.jpg',236),('rose_q50.jpg',452),('rose_gray.jpg',158)]:
    setbyte(f,off,0x0F,f'AC Huffman symbol at byte {off} changed into 0x0F (15-bit coefficients)')
def insert(f,off,extra,why):
    d=open(S+f,'rb').read()
    cases.append((f'insert("{f}", at: {off}, [{", ".join(f"0x{x:02X}" for x in extra)}])', d[:off]+extra+d[off:], why))
# Huffman tables no scan uses, defined just before the scan header: libjpeg checks a table's code
# space and DC symbols only when a scan uses it (jdhuff.c jpeg_make_d_derived_tbl), so djpeg does
# not warn. Table 3: three codes of length 1 (AC, then DC), and a DC symbol above 15.
sos=open(S+'rose_q50.jpg','rb').read().find(b'\xff\xda')
for index,bits,symbols,why in [(0x13,[3],[1,2,3],'unused AC table 3 over-subscribed'),
                               (0x03,[3],[1,2,3],'unused DC table 3 over-subscribed'),
                               (0x03,[0,1],[0x20],'unused DC table 3 with symbol 0x20'),
                               (0x10,[3],[1,2,3],'AC table 0, used by every scan, over-subscribed')]:
    counts=bits+[0]*(16-len(bits))
    body=bytes([index]+counts+symbols)
    insert('rose_q50.jpg',sos,b'\xff\xc4'+(len(body)+2).to_bytes(2,'big')+body,why)
# APPn and COM segments with a length below 2: libjpeg subtracts 2 and skips nothing (jdmarker.c
# get_interesting_appn, skip_variable), so they are two bytes long and djpeg does not warn.
for seg,why in [(b'\xff\xfe\x00\x00','a COM segment of length 0 before the scan'),
                (b'\xff\xe0\x00\x01','an APP0 segment of length 1 before the scan'),
                (b'\xff\xee\x00\x00\xff\xe1\x00\x01','APP14 and APP1 segments of lengths 0 and 1')]:
    insert('rose_q50.jpg',sos,seg,why)
# DAC segments (arithmetic conditioning): libjpeg reads them in any file (jdmarker.c get_dac) and
# fails the file on a table index of 32 or more, a DC bound pair with L > U, or an odd length; a
# valid one changes nothing in a Huffman-coded file.
for seg,why in [(b'\xff\xcc\x00\x06\x00\x10\x10\x05','a valid DAC segment before the scan'),
                (b'\xff\xcc\x00\x04\x20\x00','a DAC segment with table index 32'),
                (b'\xff\xcc\x00\x04\x00\x1f','a DAC segment whose DC lower bound is above its upper one'),
                (b'\xff\xcc\x00\x05\x00\x10\x00','a DAC segment of odd length')]:
    insert('rose_q50.jpg',sos,seg,why)
def end_with(f,off,tail,why):
    d=open(S+f,'rb').read()
    cases.append((f'endWith("{f}", at: {off}, [{", ".join(f"0x{x:02X}" for x in tail)}])', d[:off]+tail, why))
# A segment the file ends inside. After a scan, libjpeg's file source pads the file with fake EOIs
# (FF D9), so a table segment reads them as its missing bytes (and may fail), others are skipped,
# and the image ends there; before any scan it is an error. The files end at the second scan's
# DHT (sequential, one scan per component) or at the first DHT after the first scan (progressive).
seq=open(S+'rose_seq_noninterleaved.jpg','rb').read()
seq_cut=seq.find(b'\xff\xc4',seq.find(b'\xff\xda'))
prog=open(S+'rose_prog_420.jpg','rb').read()
prog_cut=prog.find(b'\xff\xc4',prog.find(b'\xff\xda'))
for f,off,tail,why in [
    ('rose_seq_noninterleaved.jpg',seq_cut,b'\xff\xfe\x00\x64'+bytes(10),'a COM segment cut after the first scan'),
    ('rose_seq_noninterleaved.jpg',seq_cut,b'\xff\xdb\x00\x43\x00','a DQT segment cut after its table id'),
    ('rose_seq_noninterleaved.jpg',seq_cut,b'\xff\xc4\x00\x1f\x00'+bytes([0,1,5,1,1,1,1,1,1,0,0,0,0,0,0,0,0,1,2]),
     'a DHT segment cut in its symbols'),
    ('rose_seq_noninterleaved.jpg',seq_cut,b'\xff\xdd\x00\x04','a DRI segment cut after its length'),
    ('rose_seq_noninterleaved.jpg',seq_cut,b'\xff\xda\x00\x08\x01\x02\x11\x00',
     'an SOS segment for component 2 cut after Ss: Se and Ah/Al read FF D9, the data FF D9'),
    ('rose_seq_noninterleaved.jpg',seq_cut,b'\xff\xda\x00\x08\x01\x02\x11\x00\x3f',
     'an SOS segment for component 2 cut before Ah/Al: it reads FF, the data D9 FF D9'),
    ('rose_prog_420.jpg',prog_cut,b'\xff\xe1\x00\x64Exi','an APP1 segment cut after the first scan'),
    ('rose_prog_420.jpg',prog_cut,b'\xff\xc4\x00\x1f\x00'+bytes([0,1,5,1,1,1,1,1,1,0,0,0,0,0,0,0,0,1,2]),
     'a DHT segment cut in its symbols'),
    ('rose_seq_noninterleaved.jpg',seq_cut,b'\xff\xc4\x00\x1f','a DHT segment cut after its length'),
    ('rose_seq_noninterleaved.jpg',seq_cut,b'\xff\xda\x00\x08','an SOS segment cut after its length'),
    ('rose_prog_420.jpg',prog.find(b'\xff\xda'),b'\xff\xfe\x00\x64'+bytes(10),'a COM segment cut before the first scan'),
]:
    end_with(f,off,tail,why)
def splice(f,edits,why):
    d=open(S+f,'rb').read()
    for off,n,extra in sorted(edits,reverse=True): d=d[:off]+extra+d[off+n:]
    items=', '.join(f'({off}, {n}, [{", ".join(f"0x{x:02X}" for x in extra)}])' for off,n,extra in edits)
    cases.append((f'splice("{f}", [{items}])', d, why))
# APP0 JFIF and APP14 Adobe count only before the first scan: libjpeg fixes the colour space when
# it reaches it (jdapimin.c default_decompress_parms). "JFIF" spelt "XFIF" is no JFIF marker; an
# Adobe segment with transform 0 (RGB) follows the first scan, where it changes nothing.
adobe=lambda t: b'\xff\xee\x00\x0eAdobe\x00\x64\x00\x00\x00\x00'+bytes([t])
splice('rose_prog_420.jpg',[(6,1,b'X'),(prog_cut,0,adobe(0))],
       'JFIF hidden, Adobe transform 0 after the first scan: YCbCr from the component ids')
splice('rose_seq_noninterleaved.jpg',[(6,1,b'X'),(seq_cut,0,adobe(0))],
       'JFIF hidden, Adobe transform 0 after the first scan: YCbCr from the component ids')
# FF FF 00 in the scan data: libjpeg-turbo's fast Huffman decoder (jdhuff.c decode_mcu_fast, used
# while its 4096-byte source buffer holds 512 bytes per block of the MCU) takes FF FF for a marker
# and reads zero bits; its slow decoder, which then decodes the MCU again over the blocks the fast
# one wrote, reads FF FF 00 as a data FF. djpeg warns about the first two (other damage follows
# from the changed bits), not about the third, whose pixels differ from the slow decoder's all the same.
for f,off in [('rose_q50.jpg',811),('rose_gray.jpg',2177),('rose_q50.jpg',834)]:
    splice(f,[(off,3,b'\xff\xff\x00')],f'bytes {off}..<{off+3} replaced by FF FF 00')
# An SOS segment listing a component before one that precedes it in the frame: libjpeg looks a
# member up among the components whose index is not below its position in the scan (jdmarker.c
# get_sos tests the scan slot of the component's index), so Cb before Y fails the file.
d=open(S+'rose_q50.jpg','rb').read(); sos=d.find(b'\xff\xda')
d2=bytearray(d); d2[sos+5],d2[sos+7]=d2[sos+7],d2[sos+5]
cases.append((f'swap("rose_q50.jpg", {sos+5}, {sos+7})', bytes(d2), 'SOS lists Cb before Y'))
# Bytes outside any segment: libjpeg's next_marker skips them with the warning "N extraneous
# bytes before marker" (every byte but fill FFs, 2 for FF 00); before a header segment, and after
# the scan data (past what the Huffman decoder read ahead).
d=open(S+'rose_q50.jpg','rb').read(); sof=d.find(b'\xff\xc0'); sos=d.find(b'\xff\xda')
for off,extra,why in [(sof,b'\x41','a stray byte before SOF'),(sos,b'\x00\x01\x02','three stray bytes before SOS'),
                      (sos,b'\xff\x00','a stuffed FF 00 before SOS'),(len(d)-2,bytes(range(0x10,0x20)),'16 bytes after the scan data')]:
    insert('rose_q50.jpg',off,extra,why)
prog=open(S+'rose_prog_420.jpg','rb').read()
insert('rose_prog_420.jpg',prog.find(b'\xff\xc4',prog.find(b'\xff\xda')),bytes(range(0x10,0x20)),'16 bytes after the first scan')
# Progressive scans: libjpeg builds only the Huffman tables a scan uses (jdphuff.c
# start_pass_phuff_decoder), so a DC scan may name AC table slot 7; a file without DC scans
# (djpeg warns "Inconsistent progression sequence") has only scans the 1/8 decode skips.
d=open(S+'rose_prog_420.jpg','rb').read(); sos=d.find(b'\xff\xda')
setbyte('rose_prog_420.jpg',sos+6,0x07,'the DC scan names AC table slot 7 for Y')
g=open(S+'rose_prog_gray.jpg','rb').read(); sos=g.find(b'\xff\xda'); dc2=g.find(b'\xff\xda\x00\x08\x01\x01\x00\x00\x00',sos+2)
splice('rose_prog_gray.jpg',[(sos,g.find(b'\xff\xc4',sos)-sos,b''),(dc2,g.find(b'\xff\xc4',dc2)-dc2,b'')],'both DC scans removed')
# A quantization table slot above 3 in SOF: libjpeg checks it only when a scan first uses the
# component (jdinput.c latch_quant_tables), so in a file cut after its first scan a component
# never scanned may name slot 7 (it comes out gray as any unscanned component).
seq=open(S+'rose_seq_noninterleaved.jpg','rb').read(); sof=seq.find(b'\xff\xc0')
seq_cut=seq.find(b'\xff\xc4',seq.find(b'\xff\xda'))
splice('rose_seq_noninterleaved.jpg',[(sof+10+3*2+2,1,b'\x07'),(seq_cut,len(seq)-seq_cut,b'')],
       'Cr names quantization table slot 7; the file ends after the first scan')
for expr,data,why in cases:
    if ONLY not in expr: continue
    path='/tmp/jpeg-damaged-case.jpg'; open(path,'wb').write(data)
    res=[]
    ok=True
    for den in (1,2,4,8):
        p=subprocess.run(['djpeg','-dct','int','-scale',f'1/{den}',path],capture_output=True,env={'JSIMD_FORCENONE':'1'})
        q=subprocess.run(['djpeg','-dct','int','-scale',f'1/{den}',path],capture_output=True)
        simd_same = p.stdout==q.stdout
        if p.returncode==1 or not p.stdout: ok=False; res.append(('exit1',p.stderr.decode().strip().replace('\n',' | '))); break
        out=p.stdout; magic=out[:2]; parts=out.split(maxsplit=4); w=int(parts[1]); h=int(parts[2])
        px=out[len(out)-w*h*(1 if magic==b'P5' else 3):]
        rgba=bytes(x for v in px for x in (v,v,v,255)) if magic==b'P5' else bytes(x for i in range(w*h) for x in (px[3*i],px[3*i+1],px[3*i+2],255))
        res.append((w,h,fnv(rgba),p.returncode,p.stderr.decode().strip().split('\n')[0],simd_same))
    print(repr((expr,why,ok,res)))
