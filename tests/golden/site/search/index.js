mirrorSearch.m({"v":7,"chunk":8192,"docs":98,"kinds":{"c":[16384,32768],"k":[32768,49152],"f":[0,16384]},"per":[11,5,82],"key":"61b53f0a63c58b8a","keys":[],"first":[
"../../etc/passwd",
"by"]});
