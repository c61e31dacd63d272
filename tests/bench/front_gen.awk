# front_gen.awk: writes a policy of about LINES lines in the shape of the
# language sketch (params, roles, rules with as-blocks, loops, probes,
# comments, providers), every rule id unique. Usage:
#   awk -v LINES=1000000 -f tests/bench/front_gen.awk > big.hpol
BEGIN {
	if (LINES == "") LINES = 1000000
	n = 0
	print "# a generated policy for the front end benchmark"; n++
	print "policy \"bench\" version 1"; n++
	print "param hangar_user = \"hangar\""; n++
	print "param agent_user = env(\"HANGAR_AGENT_USER\") or user(uid 1000).name"; n++
	print "param driver_path = env(\"PATH\") or \"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\""; n++
	print "param hangar_home = \"/var/lib/hangar\""; n++
	print "param hangar_ctl = \"/var/lib/hangar-ctl\""; n++
	print "role root = uid 0"; n++
	print "role hangar = user(hangar_user), keep caps { setuid, setgid, kill }"; n++
	print "role agent = user(agent_user), no caps, no_new_privs"; n++
	print "provider docker {"; print "    uid_split default auto"; print "}"; n += 3
	print "provider kubernetes {"; print "    uid_split default auto"
	print "    split needs (env(\"HANGAR_K8S_DRIVER_SIDECAR\") or \"false\") == \"true\""; print "}"; n += 4
	i = 0
	while (n < LINES) {
		k = i % 4
		print ""
		if (k == 0) {
			printf "rule hangar-user-%d \"the driver needs a user of its own\" {\n", i
			print "    as root {"
			print "        require exists user(hangar_user)"
			print "        require user(hangar_user).uid != user(agent_user).uid"
			print "        require user(hangar_user).uid != 0  # not root"
			print "    }"
			print "    remedy \"add a 'hangar' user to the image (useradd --system hangar)\""
			print "}"
			n += 9
		} else if (k == 1) {
			printf "rule path-%d \"the agent could plant a binary that the driver runs\" {\n", i
			print "    as agent {"
			print "        for dir in split(driver_path, \":\") {"
			print "            forbid writable(dir)"
			print "            forbid writable_ancestor(dir)"
			print "        }"
			print "        forbid sudo"
			print "    }"
			print "}"
			n += 10
		} else if (k == 2) {
			printf "rule reach-%d \"code a person allowed must not touch the driver\" {\n", i
			print "    as agent {"
			print "        require caps.effective == {} and caps.permitted == {} and caps.ambient == {}"
			print "        require no_new_privs"
			print "        forbid signal(canary hangar)"
			print "        forbid readable(hangar_ctl) or writable(hangar_ctl)"
			print "    }"
			print "}"
			n += 9
		} else {
			printf "rule harness-%d \"hangar owns the harness settings\"\n", i
			print "    when mode in { ask, deny-risky, governed } {"
			print "    as agent {"
			print "        forbid writable(hangar_home + \"/harness\")"
			print "    }"
			print "    as root {"
			print "        require owner(hangar_home) == user(hangar_user).uid"
			print "        require mode(hangar_home) & 0o077 == 0"
			print "    }"
			print "}"
			n += 11
		}
		i++
	}
}
