# bench/callgrind-split.awk - one callgrind.out file's instructions, split:
# prints "TOTAL LIB", TOTAL the summary's instructions and LIB what the
# library whose object name matches LIBRE (libnfs) costs the program
# whose object name matches PROGRE: the inclusive cost of the program's
# calls into it, less that of the library's calls back into the program
# (its callbacks, which run inside libnfs' rpc_service).  What the library
# asks of libc (memcpy, malloc) counts as the library's; calls into it
# from elsewhere (its own stubs, which callgrind may not place in its
# object) are inside those already.
#
#   awk -v LIBRE='libnfs\\.so' -v PROGRE='/dbench$' -f callgrind-split.awk callgrind.out.PID
function obname(s,   id, rest) {
	if (match(s, /^\([0-9]+\)/)) {
		id = substr(s, 2, RLENGTH - 2); rest = substr(s, RLENGTH + 1)
		sub(/^ /, "", rest)
		if (rest != "") names[id] = rest
		return names[id]
	}
	return s
}
/^summary:/ { total = $2 }
/^ob=/ { ob = obname(substr($0, 4)); next }
/^cob=/ { cob = obname(substr($0, 5)); next }
/^calls=/ { incall = 1; callee = (cob != "" ? cob : ob); cob = ""; next }
/^[0-9+*-]/ {
	if (incall) {
		if (callee ~ LIBRE && ob ~ PROGRE) lib += $2
		else if (ob ~ LIBRE && callee ~ PROGRE) lib -= $2
		incall = 0
	}
	next
}
/^fn=/ { cob = "" }
END { printf "%d %d\n", total, lib }
